/**
 * Property-based fuzzing of every IPC channel, through the real dispatcher, handlers and
 * stores of ipc-harness.ts, with fast-check and fixed seeds. Payloads are arbitrary JSON, arbitrary
 * structured-clone values, and near-valid mutations of each channel's valid request (a field replaced,
 * dropped, added, edited; prototype keys); senders are the window the channel belongs to, other windows
 * and untrusted ones. Every call must resolve to an envelope that obeys the contract: success only for a
 * payload the schema accepts from a window whose scope allows the channel, otherwise a clear refusal with
 * the right code. Afterwards the stores reopen cleanly (no state corruption). Then a flood of 10,000 calls
 * at once, and concurrent writes, in bounded time and memory. Figures: docs/user/privacy-and-security.md, "Reliability".
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../../../src/shared/ipc/bridge-types.ts';
import type { InvokeChannel } from '../../../../src/shared/ipc/channels.ts';
import { ipcContract } from '../../../../src/shared/ipc/contract.ts';
import { windowMayCall } from '../../../../src/shared/ipc/window-scopes.ts';
import type { ScopedWindowKind } from '../../../../src/shared/ipc/window-scopes.ts';
import type { IpcSender } from '../../../../src/main/ipc/dispatcher.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import { SecretStore } from '../../../../src/main/settings/secrets.ts';
import { allChannels, fakeSafeStorage, kindFor, openHarness, scopedKinds, validRequests } from './ipc-harness.ts';
import type { IpcHarness } from './ipc-harness.ts';

const SEED = 20_260_514;
/** Mixed cases over all channels, plus near-valid cases per channel (TINGXIE_FUZZ_RUNS scales both). */
const RUNS = Number(process.env.TINGXIE_FUZZ_RUNS ?? 2000);
const PER_CHANNEL = Math.max(10, Math.round(RUNS / 50));
const FLOOD = 10_000;
const CODES = new Set(['invalid-payload', 'untrusted-sender', 'out-of-scope', 'unknown-channel', 'handler-failed']);

/** Values a field may be replaced with: any JSON, edge numbers and strings, nesting. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '__proto__', '../../etc/passwd', 'x'.repeat(5000), 'provider:openai', 'asr:remote', '2026-02-30'),
  fc.constantFrom(0, -1, 1, 0.5, -0, 2 ** 31, -(2 ** 53), Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
);

/** Any value structured clone can carry across IPC (Maps, Dates, typed arrays, bigints, sparse arrays…). */
const cloneable: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 3,
  withMap: true,
  withSet: true,
  withDate: true,
  withTypedArray: true,
  withBigInt: true,
  withNullPrototype: true,
  withSparseArray: true,
});

/** Payloads close to `channel`'s valid request: the mutations a schema must catch (or accept safely). */
function nearValid(channel: InvokeChannel): fc.Arbitrary<unknown> {
  const valid = validRequests[channel] as Record<string, unknown> | undefined;
  if (valid === undefined) return fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant({}), fc.constant([]), fieldValue);
  const keys = Object.keys(valid);
  const key = fc.constantFrom(...keys);
  const withPrototypeKey = (k: string): unknown => JSON.parse(`{${JSON.stringify(k)}: {"polluted": true}, ${JSON.stringify(valid).slice(1, -1)}}`);
  return fc.oneof(
    fc.constant(valid),
    fc.tuple(key, fieldValue).map(([k, v]) => ({ ...valid, [k]: v })),
    key.map((k) => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== k))),
    fc.tuple(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([k, v]) => ({ ...valid, [k]: v })),
    fc.tuple(key, fc.string({ unit: 'grapheme', maxLength: 20 }), fc.nat(40)).map(([k, s, at]) => {
      const old = valid[k];
      return typeof old === 'string' ? { ...valid, [k]: `${old.slice(0, at)}${s}${old.slice(at)}` } : { ...valid, [k]: s };
    }),
    fc.constantFrom('__proto__', 'constructor', 'prototype').map(withPrototypeKey),
    fc.constant([valid]),
  );
}

/** Who calls: mostly the window the channel belongs to, sometimes another window or an untrusted sender. */
type Caller = { readonly kind: 'own' } | { readonly kind: 'window'; readonly window: ScopedWindowKind } | { readonly kind: 'untrusted'; readonly sender: IpcSender };
const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Caller>({ kind: 'own' }) },
  { weight: 3, arbitrary: fc.constantFrom(...scopedKinds).map((window): Caller => ({ kind: 'window', window })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<IpcSender>({ id: 999, frameUrl: 'app://tingxie/settings/index.html' }, { id: 7, frameUrl: 'https://evil.example/' }, { id: 7, frameUrl: 'file:///etc/passwd' })
      .map((sender): Caller => ({ kind: 'untrusted', sender })),
  },
);

let h: IpcHarness;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
const stats = { calls: 0, ok: 0, refused: new Map<string, number>() };

/** Sends one call and checks the envelope against the contract; returns it. */
async function callAndCheck(channel: InvokeChannel, payload: unknown, who: Caller): Promise<Envelope<unknown>> {
  const windowKind = who.kind === 'own' ? kindFor(channel) : who.kind === 'window' ? who.window : null;
  const sender = who.kind === 'untrusted' ? who.sender : h.senderOf(windowKind!);
  const r = await h.dispatcher.dispatch(channel, sender, payload);
  stats.calls++;
  expect(typeof r === 'object' && r !== null && typeof r.ok === 'boolean', 'an envelope').toBe(true);
  const inScope = windowKind !== null && windowMayCall(windowKind, channel);
  let schemaOk: boolean;
  try {
    schemaOk = ipcContract[channel].request.safeParse(payload).success;
  } catch {
    schemaOk = false;
  }
  if (r.ok) {
    stats.ok++;
    expect(inScope && schemaOk, `${channel} succeeded for ${JSON.stringify(who)} with a payload the contract refuses`).toBe(true);
    return r;
  }
  stats.refused.set(r.error.code, (stats.refused.get(r.error.code) ?? 0) + 1);
  expect(CODES.has(r.error.code), r.error.code).toBe(true);
  expect(r.error.message.length).toBeGreaterThan(0);
  expect(r.error.message.length).toBeLessThan(4000);
  if (who.kind === 'untrusted') expect(r.error.code).toBe('untrusted-sender');
  else if (!inScope) expect(r.error.code).toBe('out-of-scope');
  else if (!schemaOk) expect(r.error.code, `${channel}: ${r.error.message}`).toBe('invalid-payload');
  else expect(['invalid-payload', 'handler-failed']).toContain(r.error.code);
  return r;
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  h = await openHarness();
  await h.secrets.set('asr:remote', 'keep-me');
  for (let i = 0; i < 5; i++) {
    await h.history.log({ asr_text: `a${i}`, enhanced_text: `a${i}`, final_text: `record ${i}`, enhance_mode: 'proofread', preview_enabled: true, stt_model: 'w', llm_model: 'l', user_corrected: false, audio_duration: 1, language: 'en', source: 'voice', timestamp: `2026-03-1${i}T10:00:00.000Z` });
  }
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await h.cleanup();
  // The figures docs/user/privacy-and-security.md quotes.
  console.info(`ipc fuzz: ${stats.calls} calls, ${stats.ok} ok, refused ${JSON.stringify(Object.fromEntries(stats.refused))}`);
});

describe('IPC fuzzing (fast-check, seeded)', () => {
  it(`${RUNS} mixed calls over every channel: arbitrary JSON, structured-clone values and near-valid payloads`, async () => {
    const payloadFor = (channel: InvokeChannel): fc.Arbitrary<unknown> => fc.oneof(fc.jsonValue({ maxDepth: 4 }), cloneable, nearValid(channel), nearValid(channel));
    const call = fc.constantFrom(...allChannels).chain((channel) => fc.tuple(fc.constant(channel), payloadFor(channel), caller));
    await fc.assert(
      fc.asyncProperty(call, async ([channel, payload, who]) => {
        await callAndCheck(channel, payload, who);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);

  for (const channel of allChannels) {
    it(`${channel}: ${PER_CHANNEL} near-valid payloads from its own window`, async () => {
      await fc.assert(
        fc.asyncProperty(nearValid(channel), async (payload) => {
          await callAndCheck(channel, payload, { kind: 'own' });
        }),
        { seed: SEED + channel.length, numRuns: PER_CHANNEL },
      );
    }, 60_000);
  }

  it('left no corruption: stores reopen cleanly and agree with memory, prototypes clean, nothing unhandled', async () => {
    const reopened = await ConfigStore.open({ dataDir: h.dataDir });
    expect(reopened.loadIssues).toEqual([]);
    expect(reopened.get()).toEqual(h.config.get());
    const secrets = await SecretStore.open({ file: path.join(h.dataDir, 'secrets.json'), safeStorage: fakeSafeStorage, plaintextConsent: false, platform: 'linux' });
    expect(secrets.list()).toEqual(h.secrets.list());
    const jsonl = path.join(h.dataDir, 'conversation_history.jsonl');
    if (fs.existsSync(jsonl)) for (const line of fs.readFileSync(jsonl, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    expect(await h.dispatcher.dispatch('config:get', h.senderOf('settings'), undefined)).toMatchObject({ ok: true });
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(unhandled).toEqual([]);
    expect(stats.calls).toBeGreaterThanOrEqual(RUNS);
  });
});

describe('floods and concurrency', () => {
  it(`${FLOOD} calls at once (reads, writes, refusals) all resolve, in bounded time and memory`, async () => {
    const rng = fc.sample(fc.tuple(fc.constantFrom(...allChannels), fc.jsonValue({ maxDepth: 2 }), fc.nat(9)), { seed: SEED, numRuns: FLOOD });
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const results = await Promise.all(
      rng.map(([channel, junk, pick], i) => {
        // A mix: valid reads from their windows, junk payloads, out-of-scope and untrusted calls.
        if (pick < 4) return h.dispatcher.dispatch(i % 2 ? 'config:get' : 'app:info', h.senderOf('indicator'), undefined);
        if (pick < 7) return h.dispatcher.dispatch(channel, h.senderFor(channel), junk);
        if (pick < 9) return h.dispatcher.dispatch('secrets:set', h.senderOf('capture'), { name: 'provider:openai', value: `sk-${i}` });
        return h.dispatcher.dispatch('history:delete-all', { id: 4242, frameUrl: 'https://evil.example/' }, { confirm: true });
      }),
    );
    const elapsedMs = performance.now() - started;
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
    console.info(`ipc flood: ${FLOOD} calls in ${Math.round(elapsedMs)} ms, heap +${heapGrowthMb.toFixed(1)} MB`);
    expect(results).toHaveLength(FLOOD);
    for (const r of results) expect(typeof r.ok).toBe('boolean');
    expect(results.filter((r) => !r.ok && r.error.code === 'out-of-scope').length).toBeGreaterThan(1000);
    expect(h.secrets.get('provider:openai')).toBeUndefined();
    expect(elapsedMs).toBeLessThan(30_000);
    expect(heapGrowthMb).toBeLessThan(300);
  }, 60_000);

  it('concurrent writes from their windows end consistent: config, secrets and history on disk match memory', async () => {
    const settings = h.senderOf('settings');
    const history = h.senderOf('history');
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    const keyed = await h.history.log({ asr_text: 'c', enhanced_text: 'c', final_text: 'concurrent', enhance_mode: 'proofread', preview_enabled: true, stt_model: 'w', llm_model: 'l', user_corrected: false, audio_duration: 1, language: 'en', source: 'voice' });
    const results = await Promise.all([
      ...values.map((v) => h.dispatcher.dispatch('config:set', settings, { keyPath: 'ai_enhance.conversation_history.max_entries', value: v })),
      ...values.slice(0, 50).map((v) => h.dispatcher.dispatch('secrets:set', settings, { name: `provider:p${v}`, value: `sk-${v}` })),
      ...values.slice(0, 30).map((v) => h.dispatcher.dispatch('history:update', history, { key: keyed.record.id, final_text: `edit ${v}` })),
      ...values.map(() => h.dispatcher.dispatch('config:get', settings, undefined)),
    ]);
    for (const r of results) expect(r, JSON.stringify(r).slice(0, 300)).toMatchObject({ ok: true });
    const onDisk = await ConfigStore.open({ dataDir: h.dataDir });
    expect(onDisk.get()).toEqual(h.config.get());
    expect(values).toContain(h.config.get().ai_enhance.conversation_history.max_entries);
    for (const v of values.slice(0, 50)) expect(h.secrets.get(`provider:p${v}`)).toBe(`sk-${v}`);
    const secrets = await SecretStore.open({ file: path.join(h.dataDir, 'secrets.json'), safeStorage: fakeSafeStorage, plaintextConsent: false, platform: 'linux' });
    expect(secrets.list()).toEqual(h.secrets.list());
    const page = await h.history.query({ text: 'edit' });
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]?.final_text).toMatch(/^edit \d+$/);
  }, 60_000);
});
