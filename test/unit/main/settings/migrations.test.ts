import { describe, expect, it } from 'vitest';
import { CONFIG_VERSION } from '../../../../src/shared/config/config-schema.ts';
import { migrate, type Migration } from '../../../../src/main/settings/migrations.ts';

describe('migrate', () => {
  it('runs each step from the file version up to the target, in order', () => {
    const steps: Migration[] = [
      { from: 0, describe: 'a', apply: (r, n) => { r.a = 1; n.push('a'); } },
      { from: 1, describe: 'b', apply: (r, n) => { r.b = (r.a as number) + 1; n.push('b'); } },
    ];
    const res = migrate({}, steps, 2);
    expect(res.raw).toEqual({ a: 1, b: 2, version: 2 });
    expect(res.notes).toEqual(['a', 'b']);
    expect(migrate({ version: 1, a: 5 }, steps, 2).raw).toEqual({ version: 2, a: 5, b: 6 });
    expect(migrate({ version: 2 }, steps, 2).notes).toEqual([]);
  });

  it('leaves a newer file alone and refuses a gap in the chain', () => {
    expect(migrate({ version: 7, x: 1 }, [], 2)).toMatchObject({ newer: true, toVersion: 7, raw: { version: 7, x: 1 } });
    expect(() => migrate({ version: 0 }, [], 1)).toThrow(/no config migration from version 0/);
  });

  it('the real 0 → 1 step maps WenZi output.method "auto" to "paste" and leaves "copy" alone', () => {
    expect(migrate({ output: { method: 'auto' } }).raw).toEqual({ output: { method: 'paste' }, version: CONFIG_VERSION });
    expect(migrate({ output: { method: 'copy' } }).raw).toEqual({ output: { method: 'copy' }, version: CONFIG_VERSION });
  });

  it('the real 1 → 2 step gives every provider without a kind the one its base URL names, once', () => {
    const res = migrate({
      version: 1,
      ai_enhance: { providers: { a: { base_url: 'https://api.openai.com/v1' }, b: { base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1' }, c: { base_url: 'http://localhost:1234/v1' }, d: { base_url: 'not a url' }, e: { kind: 'vllm', base_url: 'https://api.openai.com/v1' } } },
    });
    const providers = (res.raw.ai_enhance as { providers: Record<string, { kind?: string }> }).providers;
    expect(Object.fromEntries(Object.entries(providers).map(([id, p]) => [id, p.kind]))).toEqual({ a: 'openai', b: 'dashscope', c: 'lmstudio', d: 'other', e: 'vllm' });
    expect(res.notes).toHaveLength(4);
    expect(migrate({ version: 1 }).raw).toEqual({ version: CONFIG_VERSION });
  });

  it('the real 2 → 3 step lifts the old default asr.language "auto" from a Tingxie file, never from a WenZi one', () => {
    // Written by Tingxie (version 1 or 2, whole config saved): "auto" was the default nobody chose.
    for (const version of [1, 2]) {
      const res = migrate({ version, asr: { engine: 'local', language: 'auto' } });
      expect(res.raw).toEqual({ version: CONFIG_VERSION, asr: { engine: 'local', language: 'follow-ui' } });
      expect(res.notes.some((n) => n.includes('asr.language'))).toBe(true);
    }
    // A choice other than the old default stays.
    for (const language of ['zh', 'en', 'yue', 'zh-TW']) expect(migrate({ version: 2, asr: { language } }).raw).toEqual({ version: CONFIG_VERSION, asr: { language } });
    // No version: WenZi's config (its default is "zh") or one written by hand; "auto" there was chosen.
    expect(migrate({ asr: { language: 'auto', backend: 'funasr' }, language: 'auto' }).raw).toEqual({ version: CONFIG_VERSION, asr: { language: 'auto', backend: 'funasr' }, language: 'auto' });
    expect(migrate({ asr: { language: 'zh' } }).raw).toEqual({ version: CONFIG_VERSION, asr: { language: 'zh' } });
    // Nothing to lift: no asr section, or no language in it (the new default applies when the config is read).
    expect(migrate({ version: 2 }).raw).toEqual({ version: CONFIG_VERSION });
    expect(migrate({ version: 2, asr: { engine: 'remote' } }).raw).toEqual({ version: CONFIG_VERSION, asr: { engine: 'remote' } });
  });
});
