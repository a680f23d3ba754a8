/**
 * Per-window IPC scopes: the contract's scope table agrees with the windows and their
 * renderers, and through the real dispatcher, handlers and stores the indicator and capture windows cannot
 * store a key, delete history or deliver text, while every window can still call what its page calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOW_KINDS } from '../../../../src/main/app/window-policy.ts';
import { invokeChannels, splitChannel, camelCase } from '../../../../src/shared/ipc/channels.ts';
import type { InvokeChannel } from '../../../../src/shared/ipc/channels.ts';
import { windowInvokeScopes, windowMayCall } from '../../../../src/shared/ipc/window-scopes.ts';
import type { ScopedWindowKind } from '../../../../src/shared/ipc/window-scopes.ts';
import { openHarness, scopedKinds, validRequests } from '../../main/ipc/ipc-harness.ts';
import type { IpcHarness } from '../../main/ipc/ipc-harness.ts';

const rendererRoot = path.resolve(import.meta.dirname, '../../../../src/renderer');

/** Every source file reachable from `entry` through relative imports (the page's own code). */
function reachable(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (/\.(tsx?|m?js)$/.test(target) && fs.existsSync(target) && target.startsWith(rendererRoot)) walk(target);
    }
  };
  walk(entry);
  return [...seen];
}

/** The invoke channels a page's code calls as `bridge.<domain>.<method>(` (or through getBridge()). */
function channelsCalledBy(kind: string): Set<InvokeChannel> {
  const dir = path.join(rendererRoot, kind);
  const entry = ['main.tsx', 'main.ts'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (entry === undefined) throw new Error(`no entry for ${kind}`);
  const byMethod = new Map(invokeChannels.map((c) => [`${splitChannel(c).domain}.${camelCase(splitChannel(c).verb)}`, c]));
  const found = new Set<InvokeChannel>();
  for (const file of reachable(entry)) {
    // Comments show example calls (lib/bridge.ts documents `bridge.config.set(…)`): they are not calls.
    const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
    for (const m of text.matchAll(/\b([a-z]+)\.([a-zA-Z]+)\(/g)) {
      const channel = byMethod.get(`${m[1]}.${m[2]}`);
      // Only calls on the bridge count (`bridge.history.delete(`, not `map.delete(`): look at what precedes.
      const before = text.slice(Math.max(0, (m.index ?? 0) - 20), m.index);
      if (channel !== undefined && /(bridge|getBridge\(\)|b)\.\s*$/.test(before)) found.add(channel);
    }
  }
  return found;
}

describe('the scope table', () => {
  it('has a scope for every window kind the app opens, and every channel is callable by some window', () => {
    for (const kind of WINDOW_KINDS) expect(Object.keys(windowInvokeScopes), kind).toContain(kind);
    for (const channel of invokeChannels) expect(scopedKinds.some((k) => windowMayCall(k, channel)), channel).toBe(true);
  });

  it('keeps the dangerous channels away from the capture and indicator windows', () => {
    for (const kind of ['capture', 'indicator'] as const) {
      for (const channel of ['secrets:set', 'secrets:delete', 'history:delete-all', 'history:delete-day', 'dictation:deliver', 'dictation:confirm', 'config:set', 'app:open-external', 'modes:save']) {
        expect(windowMayCall(kind, channel), `${kind} → ${channel}`).toBe(false);
      }
    }
    expect(windowInvokeScopes.capture).toEqual(['capture:frames', 'capture:status']);
  });

  for (const kind of WINDOW_KINDS) {
    it(`${kind}: every channel its page's code calls is in its scope`, () => {
      const called = channelsCalledBy(kind);
      expect(called.size, `no bridge call found for ${kind}: the scan is broken`).toBeGreaterThan(0);
      const missing = [...called].filter((c) => !windowMayCall(kind, c));
      expect(missing, `${kind} calls channels outside its scope (src/shared/ipc/window-scopes.ts)`).toEqual([]);
    });
  }
});

describe('through the real dispatcher, handlers and stores', () => {
  let h: IpcHarness;
  beforeAll(async () => {
    h = await openHarness();
    await h.secrets.set('asr:remote', 'keep-me');
    await h.history.log({ asr_text: 'a', enhanced_text: 'a', final_text: 'keep this record', enhance_mode: 'proofread', preview_enabled: true, stt_model: 'w', llm_model: 'l', user_corrected: false, audio_duration: 1, language: 'en', source: 'voice' });
  });
  afterAll(() => h.cleanup());

  for (const kind of ['capture', 'indicator'] as const) {
    it(`the ${kind} window cannot call secrets:set, history:delete-all or dictation:deliver; nothing changes`, async () => {
      const historyFile = path.join(h.dataDir, 'conversation_history.jsonl');
      const before = fs.readFileSync(historyFile);
      for (const channel of ['secrets:set', 'history:delete-all', 'dictation:deliver'] as const) {
        const r = await h.dispatcher.dispatch(channel, h.senderOf(kind), validRequests[channel]);
        expect(r, channel).toEqual({ ok: false, error: { code: 'out-of-scope', message: `${channel} refused: the ${kind} window may not call it` } });
      }
      expect(h.secrets.get('provider:openai')).toBeUndefined();
      expect(h.secrets.get('asr:remote')).toBe('keep-me');
      expect(fs.readFileSync(historyFile).equals(before)).toBe(true);
      expect(h.logLines.filter((l) => l.level === 'warn' && /scope/.test(l.message)).length).toBeGreaterThanOrEqual(3);
    });
  }

  it('every window may call each channel of its scope (not refused as out-of-scope), and nothing else', async () => {
    const quiet: readonly InvokeChannel[] = ['app:open-external', 'app:open-logs', 'history:delete-all', 'history:delete-day', 'history:delete', 'secrets:delete', 'secrets:set'];
    for (const kind of scopedKinds as ScopedWindowKind[]) {
      for (const channel of invokeChannels) {
        const allowed = windowMayCall(kind, channel);
        // A refused call never reaches a handler, so try every refused one; of the allowed ones skip
        // those with side effects outside this test's view (they are exercised in their own tests).
        if (allowed && quiet.includes(channel)) continue;
        if (allowed && (channel.startsWith('dictation:') || channel.startsWith('capture:') || channel.startsWith('models:') || channel.startsWith('providers:') || channel.startsWith('onboarding:') || channel.endsWith(':import') || channel.endsWith(':export'))) continue;
        const r = await h.dispatcher.dispatch(channel, h.senderOf(kind), validRequests[channel]);
        const outOfScope = !r.ok && r.error.code === 'out-of-scope';
        expect(outOfScope, `${kind} → ${channel}: ${JSON.stringify(r).slice(0, 200)}`).toBe(!allowed);
      }
    }
  });
});
