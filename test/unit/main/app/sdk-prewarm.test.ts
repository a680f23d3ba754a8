// The LLM SDK is loaded in the background after start (B9b: the first dictation must not pay its
// import), but never on the start path itself and only when the settings will use it.
import { describe, expect, it } from 'vitest';
import { prewarmSdk, sdkNeeded } from '../../../../src/main/app/sdk-prewarm.ts';
import { defaultConfig } from '../../../../src/shared/config/config-schema.ts';

describe('prewarmSdk', () => {
  it('loads the SDK on a later turn, not during the call (off the start path)', async () => {
    const later: (() => void)[] = [];
    let loads = 0;
    const logged: string[] = [];
    prewarmSdk({ needed: () => true, load: async () => void (loads += 1), defer: (fn) => later.push(fn), log: (m) => logged.push(m) });
    expect(loads).toBe(0);
    expect(later).toHaveLength(1);
    later[0]?.();
    expect(loads).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(logged).toEqual(['LLM SDK loaded in the background']);
  });

  it('by default defers with a timer: nothing is imported before the caller finishes its own turn', async () => {
    let loads = 0;
    prewarmSdk({ needed: () => true, load: async () => void (loads += 1) });
    expect(loads).toBe(0);
    await new Promise((r) => setTimeout(r, 5));
    expect(loads).toBe(1);
  });

  it('does nothing when neither enhancement nor the remote engine is on, and logs a failed import', async () => {
    let loads = 0;
    prewarmSdk({ needed: () => false, load: async () => void (loads += 1), defer: (fn) => fn() });
    expect(loads).toBe(0);
    const logged: string[] = [];
    prewarmSdk({ needed: () => true, load: () => Promise.reject(new Error('gone')), defer: (fn) => fn(), log: (m) => logged.push(m) });
    await new Promise((r) => setTimeout(r, 0));
    expect(logged).toEqual(['LLM SDK could not be loaded ahead of use']);
  });

  it('sdkNeeded: enhancement on or the remote speech engine', () => {
    const base = defaultConfig();
    expect(sdkNeeded({ ...base, ai_enhance: { ...base.ai_enhance, enabled: false }, asr: { ...base.asr, engine: 'local' } })).toBe(false);
    expect(sdkNeeded({ ...base, ai_enhance: { ...base.ai_enhance, enabled: true }, asr: { ...base.asr, engine: 'local' } })).toBe(true);
    expect(sdkNeeded({ ...base, ai_enhance: { ...base.ai_enhance, enabled: false }, asr: { ...base.asr, engine: 'remote' } })).toBe(true);
  });
});
