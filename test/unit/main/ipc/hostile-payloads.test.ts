/**
 * Every registered channel, called with hostile payloads through the real
 * dispatcher, real handlers and real stores, is refused with a clear error; nothing on disk changes,
 * Object.prototype stays clean and the process stays up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeChannelArity } from '../../../../src/shared/ipc/channels.ts';
import { ipcContract } from '../../../../src/shared/ipc/contract.ts';
import type { InvokeChannel } from '../../../../src/shared/ipc/channels.ts';
import type { Envelope } from '../../../../src/shared/ipc/bridge-types.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import type { HistoryPage, UsageStats } from '../../../../src/shared/history/query.ts';
import type { NewHistoryRecord } from '../../../../src/shared/history/record.ts';
import { allChannels, openHarness, validRequests } from './ipc-harness.ts';

/** A confirmed dictation with a 2-character name (found through the short-query path of the index). */
const dictation: NewHistoryRecord = {
  asr_text: '果果今天在公园里遇到了平平。',
  enhanced_text: '果果今天在公园里遇到了平平。',
  final_text: '果果今天在公园里遇到了萍萍。',
  enhance_mode: 'proofread',
  preview_enabled: true,
  stt_model: 'whisper-base',
  llm_model: 'qwen2.5:7b',
  user_corrected: true,
  audio_duration: 3.2,
  language: 'zh',
  source: 'voice',
};
import type { IpcHarness } from './ipc-harness.ts';

const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

function nested(depth: number, leaf: unknown, asArray = false): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** A payload that breaks every reflective operation: dispatch must still resolve, not throw. */
function throwingProxy(): unknown {
  const boom = (): never => {
    throw new Error('trap');
  };
  return new Proxy({}, { ownKeys: boom, getPrototypeOf: boom, get: boom, has: boom, getOwnPropertyDescriptor: boom });
}

/** Hostile values for a single field (or for a payload-less channel's whole payload). */
function hostileValues(): [string, unknown][] {
  return [
    // Negative and fractional: wrong for every string field, and out of range for config:set's example key.
    ['number', -1.5],
    ['boolean', true],
    ['null', null],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['10 MB string', TEN_MB],
    ['array', ['a']],
    ['object', { a: 1 }],
    ['function', () => 1],
    ['symbol', Symbol('s')],
    ['bigint', 10n],
    ['Date', new Date(0)],
    ['Map', new Map([['a', 1]])],
    ['__proto__ object', JSON.parse('{"__proto__": {"polluted": true}}')],
    ['deep object', nested(10_000, 1)],
    ['deep array', nested(10_000, 1, true)],
  ];
}

/** Every hostile payload for `channel`, derived from the contract's arity and the valid example. */
function hostilePayloads(channel: InvokeChannel): [string, unknown][] {
  const cases: [string, unknown][] = [];
  const valid = validRequests[channel] as Record<string, unknown> | undefined;
  if (invokeChannelArity[channel] === 0) {
    for (const [name, value] of hostileValues()) cases.push([`payload is ${name}`, value]);
    cases.push(['empty object', {}], ['string', 'hello'], ['proxy that throws', throwingProxy()]);
    return cases;
  }
  if (valid === undefined) throw new Error(`no valid example for ${channel}`);
  cases.push(['undefined payload', undefined], ['string payload', 'hello'], ['number payload', 1]);
  cases.push(['array instead of object', [valid]]);
  // Fields with defaults (history:query, history:stats) may be left out, so `{}` or a missing field is
  // only hostile where the schema requires it; that is read from the schema, not assumed.
  const shape = (ipcContract[channel].request as unknown as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
  const required = (key: string): boolean => !shape[key]?.safeParse(undefined).success;
  if (Object.keys(shape).some(required)) cases.push(['empty object', {}]);
  cases.push(['extra field', { ...valid, extra: 1 }]);
  cases.push(['__proto__ key', JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(valid).slice(1, -1)}}`)]);
  cases.push(['constructor key', JSON.parse(`{"constructor": {"prototype": {"polluted": true}}, ${JSON.stringify(valid).slice(1, -1)}}`)]);
  cases.push(['symbol key', { ...valid, [Symbol('k')]: 1 }]);
  cases.push(['class instance', Object.assign(new (class Payload {})(), valid)]);
  cases.push(['proxy that throws', throwingProxy()]);
  cases.push(['deep object', nested(10_000, valid)]);
  for (const key of Object.keys(valid)) {
    const { [key]: _dropped, ...missing } = valid;
    if (required(key)) cases.push([`missing ${key}`, missing]);
    for (const [name, value] of hostileValues()) {
      // A "hostile" value equal to the valid one (delete-all's `confirm: true`) is not hostile.
      // Nor is a boolean where the field is a boolean flag (history:count's `facets`).
      if (Object.is(value, valid[key]) || (typeof value === 'boolean' && typeof valid[key] === 'boolean')) continue;
      // config:set's `value` accepts any plain JSON; the store then refuses what does not fit the key
      // (max_entries: an integer 1..1000), and that refusal must also come back as invalid-payload.
      cases.push([`${key} is ${name}`, { ...valid, [key]: value }]);
    }
  }
  return cases;
}

/** Channel-specific attacks that pass the shape check and must be refused deeper down. */
const deeperAttacks: [InvokeChannel, string, unknown][] = [
  ['config:set', 'keyPath __proto__', { keyPath: '__proto__.polluted', value: true }],
  ['config:set', 'keyPath constructor.prototype', { keyPath: 'constructor.prototype.polluted', value: true }],
  ['config:set', 'unknown key', { keyPath: 'no.such.setting', value: 1 }],
  ['config:set', 'empty segment', { keyPath: 'ai_enhance..mode', value: 'x' }],
  ['config:set', 'wrong type for key', { keyPath: 'ai_enhance.conversation_history.max_entries', value: 'ten' }],
  ['config:set', 'out of range', { keyPath: 'ai_enhance.conversation_history.max_entries', value: -5 }],
  ['config:set', 'NaN value', { keyPath: 'ai_enhance.conversation_history.max_entries', value: Number.NaN }],
  ['config:set', 'Infinity value', { keyPath: 'ai_enhance.conversation_history.max_entries', value: Infinity }],
  ['config:set', '__proto__ inside value', { keyPath: 'ai_enhance.conversation_history', value: JSON.parse('{"__proto__":{"polluted":1}}') }],
  ['config:set', 'nested __proto__ inside value', { keyPath: 'ai_enhance', value: JSON.parse('{"a":[{"b":{"__proto__":{"polluted":1}}}]}') }],
  ['config:set', 'value 33 levels deep', { keyPath: 'ai_enhance', value: nested(33, 1) }],
  ['config:set', 'value of 300 KB', { keyPath: 'ai_enhance.mode', value: 'y'.repeat(300 * 1024) }],
  ['config:set', 'whole config replaced by a string', { keyPath: 'ai_enhance', value: 'oops' }],
  ['secrets:set', 'empty value', { name: 'provider:openai', value: '' }],
  ['secrets:set', 'bad name', { name: 'provider:has space', value: 'k' }],
  ['secrets:set', 'foreign name', { name: 'ssh:key', value: 'k' }],
  ['secrets:delete', 'name with newline', { name: 'provider:a\nb' }],
  ['app:open-external', 'http URL', { url: 'http://github.com/' }],
  ['app:open-external', 'file URL', { url: 'file:///etc/passwd' }],
  ['app:open-external', 'javascript URL', { url: 'javascript:alert(1)' }],
  ['app:open-external', 'foreign host', { url: 'https://evil.example/' }],
  ['app:open-external', 'lookalike host', { url: 'https://github.com.evil.example/' }],
  ['app:open-external', 'credentials', { url: 'https://user:pw@github.com/' }],
  ['app:open-external', 'not a URL', { url: 'github.com' }],
];

function expectRefused(result: Envelope<unknown>, channel: string, code: string): void {
  expect(result.ok, `${channel} should have been refused`).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe(code);
  expect(typeof result.error.message).toBe('string');
  expect(result.error.message.length).toBeGreaterThan(10);
  expect(result.error.message.length).toBeLessThan(3000);
  // A clear message names what was refused and carries no stack trace.
  expect(result.error.message).not.toMatch(/\n\s+at /);
  // The envelope is plain data that survives structured clone (what Electron's IPC does to it).
  expect(structuredClone(result)).toEqual(result);
}

describe('hostile payloads on every channel', () => {
  let h: IpcHarness;
  let configBytes: Buffer;
  let secretsBefore: readonly unknown[];
  let historyBytes: Buffer;
  let filesBefore: string[];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    h = await openHarness();
    // One real secret on disk, so a hostile delete/set would show.
    await h.secrets.set('asr:remote', 'keep-me');
    // And one real dictation, so a hostile history edit or deletion would show.
    await h.history.log(dictation);
    await h.history.settled();
    configBytes = fs.readFileSync(h.config.path);
    historyBytes = fs.readFileSync(path.join(h.dataDir, 'conversation_history.jsonl'));
    filesBefore = fs.readdirSync(h.dataDir).sort();
    secretsBefore = h.secrets.list();
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h.cleanup();
  });

  it('the contract has channels and each one has hostile cases', () => {
    expect(allChannels.length).toBeGreaterThanOrEqual(9);
    for (const channel of allChannels) expect(hostilePayloads(channel).length).toBeGreaterThan(5);
  });

  for (const channel of allChannels) {
    it(`${channel}: every hostile payload is refused as invalid-payload`, async () => {
      const cases = hostilePayloads(channel);
      for (const [name, payload] of cases) {
        const result = await h.dispatcher.dispatch(channel, h.senderFor(channel), payload);
        // config:set accepts any plain JSON `value`; the store refuses the wrong ones, still as invalid-payload.
        expectRefused(result, `${channel} (${name})`, 'invalid-payload');
      }
    });

    it(`${channel}: an untrusted sender is refused even with a valid payload`, async () => {
      const senders = [
        { id: 999, frameUrl: h.senderFor(channel).frameUrl }, // not one of our webContents
        { id: h.senderFor(channel).id, frameUrl: 'https://evil.example/' }, // our window showing a foreign page
        { id: h.senderFor(channel).id, frameUrl: '' }, // frame gone
        { id: h.senderFor(channel).id, frameUrl: 'file:///etc/passwd' }, // a local file: pages are on app:// only
        { id: h.senderFor(channel).id, frameUrl: 'app://evil/settings/index.html' }, // another app:// host
      ];
      for (const sender of senders) {
        const result = await h.dispatcher.dispatch(channel, sender, validRequests[channel]);
        expectRefused(result, channel, 'untrusted-sender');
      }
    });
  }

  for (const [channel, name, payload] of deeperAttacks) {
    it(`${channel}: ${name} is refused`, async () => {
      const result = await h.dispatcher.dispatch(channel, h.senderFor(channel), payload);
      expectRefused(result, channel, 'invalid-payload');
    });
  }

  it('unknown channels are refused', async () => {
    for (const channel of ['config:delete', '', '__proto__', 'constructor', 'toString', 'x'.repeat(100_000), 42, null]) {
      const result = await h.dispatcher.dispatch(channel as string, h.trustedSender, undefined);
      expectRefused(result, String(channel).slice(0, 20), 'unknown-channel');
    }
  });

  it('left no trace: config file unchanged and valid, secrets unchanged, nothing opened, prototypes clean', async () => {
    expect(fs.readFileSync(h.config.path).equals(configBytes)).toBe(true);
    const reopened = await ConfigStore.open({ dataDir: h.dataDir });
    expect(reopened.loadIssues).toEqual([]);
    expect(reopened.get()).toEqual(h.config.get());
    expect(h.secrets.list()).toEqual(secretsBefore);
    expect(h.secrets.get('asr:remote')).toBe('keep-me');
    expect(h.opened).toEqual([]);
    expect(h.logsOpened.count).toBe(0);
    expect(fs.readdirSync(h.dataDir).sort()).toEqual(filesBefore);
    expect(fs.readFileSync(path.join(h.dataDir, 'conversation_history.jsonl')).equals(historyBytes)).toBe(true);
    expect((await h.history.query({ text: '萍萍' })).rows.map((r) => r.final_text)).toEqual([dictation.final_text]);
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(unhandled).toEqual([]);
    // Untrusted calls were logged (checklist item 17), with the sender.
    expect(h.logLines.some((l) => l.level === 'warn' && /untrusted/.test(l.message))).toBe(true);
  });
});

describe('valid payloads work end to end', () => {
  let h: IpcHarness;
  beforeAll(async () => {
    h = await openHarness();
  });
  afterAll(() => h.cleanup());

  it('history:query finds a 2-character Chinese name; history:update edits the JSONL; stats count it; deletes remove it', async () => {
    const { record } = await h.history.log({ ...dictation, timestamp: '2026-03-12T10:30:00.000Z' });
    await h.history.log({ ...dictation, final_text: 'unrelated', asr_text: 'unrelated', timestamp: '2026-03-13T10:30:00.000Z' });
    const found = await h.dispatcher.dispatch('history:query', h.senderFor('history:query'), { text: '萍萍' });
    if (!found.ok) throw new Error(found.error.message);
    expect((found.value as HistoryPage).rows.map((r) => r.key)).toEqual([record.id]);
    expect(await h.dispatcher.dispatch('history:count', h.senderFor('history:count'), { text: '萍萍', facets: false })).toMatchObject({
      ok: true,
      value: { total: 1, pageCount: 1 },
    });

    const edited = await h.dispatcher.dispatch('history:update', h.senderFor('history:update'), { key: record.id, final_text: '萍萍今天很开心。' });
    expect(edited).toMatchObject({ ok: true, value: { final_text: '萍萍今天很开心。', user_corrected: true } });
    const onDisk = fs.readFileSync(path.join(h.dataDir, 'conversation_history.jsonl'), 'utf8');
    expect(onDisk).toContain('萍萍今天很开心。');
    expect(onDisk).toMatch(/"edited_at":/);

    const stats = await h.dispatcher.dispatch('history:stats', h.senderFor('history:stats'), { since: '2026-03-01T00:00:00Z', now: '2026-03-20T00:00:00Z' });
    if (!stats.ok) throw new Error(stats.error.message);
    expect((stats.value as UsageStats).totals.dictations).toBe(2);

    expect(await h.dispatcher.dispatch('history:delete-day', h.senderFor('history:delete-day'), { day: '2026-03-13', tzOffsetMinutes: 0 })).toEqual({ ok: true, value: 1 });
    expect(await h.dispatcher.dispatch('history:delete', h.senderFor('history:delete'), { key: record.id })).toEqual({ ok: true, value: true });
    expect(fs.readFileSync(path.join(h.dataDir, 'conversation_history.jsonl'), 'utf8')).toBe('');
    await h.history.log(dictation);
    expect(await h.dispatcher.dispatch('history:delete-all', h.senderFor('history:delete-all'), { confirm: true })).toEqual({ ok: true, value: null });
    const after = await h.dispatcher.dispatch('history:query', h.senderFor('history:query'), { text: '', includeArchived: true });
    expect(after).toMatchObject({ ok: true, value: { rows: [] } });
  });

  it('config:set then config:get, persisted to disk', async () => {
    const set = await h.dispatcher.dispatch('config:set', h.senderFor('config:set'), validRequests['config:set']);
    expect(set.ok).toBe(true);
    const got = await h.dispatcher.dispatch('config:get', h.senderFor('config:get'), undefined);
    if (!got.ok) throw new Error(got.error.message);
    const config = got.value as { ai_enhance: { conversation_history: { max_entries: number } } };
    expect(config.ai_enhance.conversation_history.max_entries).toBe(12);
    const onDisk = JSON.parse(fs.readFileSync(path.join(h.dataDir, 'config.json'), 'utf8'));
    expect(onDisk.ai_enhance.conversation_history.max_entries).toBe(12);
    expect(structuredClone(got.value)).toEqual(got.value);
  });

  it('config:set of a whole object value', async () => {
    const r = await h.dispatcher.dispatch('config:set', h.senderFor('config:set'), { keyPath: 'output.preview', value: false });
    expect(r.ok).toBe(true);
    expect((h.config.get() as { output: { preview: boolean } }).output.preview).toBe(false);
  });

  it('config:issues reports the file and no issues for a fresh folder', async () => {
    const r = await h.dispatcher.dispatch('config:issues', h.senderFor('config:issues'), undefined);
    expect(r).toEqual({ ok: true, value: { path: h.config.path, loadIssues: [], backupPath: null } });
  });

  it('secrets:set / status / delete never return the value', async () => {
    const set = await h.dispatcher.dispatch('secrets:set', h.senderFor('secrets:set'), validRequests['secrets:set']);
    expect(set).toEqual({ ok: true, value: { backend: 'os-keyring', secrets: [{ name: 'provider:openai', persisted: true }], issues: [] } });
    expect(JSON.stringify(set)).not.toContain('sk-test-123');
    expect(fs.readFileSync(path.join(h.dataDir, 'secrets.json'), 'utf8')).not.toContain('sk-test-123');
    expect(fs.readFileSync(path.join(h.dataDir, 'config.json'), 'utf8')).not.toContain('sk-test-123');
    const del = await h.dispatcher.dispatch('secrets:delete', h.senderFor('secrets:delete'), validRequests['secrets:delete']);
    expect(del).toEqual({ ok: true, value: { backend: 'os-keyring', secrets: [], issues: [] } });
  });

  it('app:info, app:open-external (allow-listed) and app:open-logs reach the app service', async () => {
    const info = await h.dispatcher.dispatch('app:info', h.senderFor('app:info'), undefined);
    expect(info).toEqual({ ok: true, value: { version: '0.1.0', platform: process.platform, dataDir: h.dataDir, uiLanguage: 'en' } });
    expect(await h.dispatcher.dispatch('app:open-external', h.senderFor('app:open-external'), validRequests['app:open-external'])).toEqual({ ok: true, value: null });
    expect(h.opened).toEqual(['https://github.com/tingxie/tingxie']);
    expect(await h.dispatcher.dispatch('app:open-logs', h.senderFor('app:open-logs'), undefined)).toEqual({ ok: true, value: null });
    expect(h.logsOpened.count).toBe(1);
  });
});
