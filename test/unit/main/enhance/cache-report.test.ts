import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { promptCacheReport, TYPICAL_ENTRY_TOKENS } from '../../../../src/main/enhance/cache-report.ts';
import { providerPresets } from '../../../../src/main/enhance/providers/presets.ts';
import { PROFILES } from '../../../../src/main/enhance/providers/registry.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { configSchema, type Config } from '../../../../src/shared/config/config-schema.ts';
import { promptCacheText } from '../../../../src/shared/notices/provider-check-text.ts';
import { PROVIDER_KINDS } from '../../../../src/shared/provider-kinds.ts';
import { confirmed } from './enhance-fixture.ts';

/**
 * Settings' prompt-cache report: the default provider's prompt measured with the real request
 * builder over the user's history, against the provider's cache rule from its profile. Below the minimum it says
 * so and how many history entries would reach it, instead of promising savings.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-cache-report-'));
  dirs.push(d);
  return d;
};

function config(kind: string, model: string, history: Partial<Config['ai_enhance']['conversation_history']> = {}): Config {
  return configSchema.parse({
    ai_enhance: {
      providers: { p: { kind, base_url: 'http://127.0.0.1:9/v1', models: [model] } },
      default_provider: 'p',
      default_model: model,
      conversation_history: { enabled: false, max_entries: 10, ...history },
    },
  });
}

describe('promptCacheReport', () => {
  it('OpenAI with the default prompt (history off): below the 1,024-token minimum, and what to raise', async () => {
    const r = await promptCacheReport(config('openai', 'gpt-4o-mini'), 'en', { dataDir: tmp() });
    expect(r).toMatchObject({ providerLabel: 'OpenAI', model: 'gpt-4o-mini', tokenMethod: 'exact', verdict: 'below-minimum', historyEnabled: false, cache: { minTokens: 1024, stepTokens: 128 } });
    expect(r.promptTokens).toBeGreaterThan(150);
    expect(r.promptTokens).toBeLessThan(600);
    expect(r.tokensPerEntry).toBe(TYPICAL_ENTRY_TOKENS);
    const need = Math.ceil((1024 - r.promptTokens) / TYPICAL_ENTRY_TOKENS);
    expect(r.suggestedEntries).toEqual({ low: need, high: need * 2 });
    expect(promptCacheText('en', r)).toBe(
      `Your prompt is ~${r.promptTokens} tokens; OpenAI caches from 1,024 in 128-token steps. Turn on history injection with max_entries ${need}–${need * 2} to benefit; until then nothing is cached.`,
    );
  });

  it('measures the user’s own history entries, and says when max_entries already reaches the minimum', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, warn: () => {} });
    try {
      for (let i = 0; i < 80; i++) await store.log(confirmed('proofread', `第${i}次会议纪要要发给萍萍和芳芳确认一下细节然后归档`));
      const short = await promptCacheReport(config('openai', 'gpt-4o-mini', { enabled: true, max_entries: 5 }), 'zh', { dataDir: dir, history: store });
      expect(short.verdict).toBe('below-minimum');
      expect(short.tokensPerEntry).toBeGreaterThan(10);
      expect(short.tokensPerEntry).not.toBe(TYPICAL_ENTRY_TOKENS);
      expect(short.suggestedEntries?.low).toBeGreaterThan(5);
      expect(promptCacheText('zh', short)).toMatch(/^你的提示词约 \d+ token；OpenAI 从 1,024 token 起才缓存，按 128 token 为单位。要用上缓存，请把“重建后的条数”调到 \d+–\d+；在此之前不会有缓存。$/);
      const long = await promptCacheReport(config('openai', 'gpt-4o-mini', { enabled: true, max_entries: 60, refresh_threshold: 200, max_history_chars: 20_000 }), 'zh', { dataDir: dir, history: store });
      expect(long.verdict).toBe('caches');
      expect(long.promptTokens).toBeGreaterThanOrEqual(1024);
      expect(promptCacheText('en', long)).toBe(`Your prompt is ~${long.promptTokens.toLocaleString('en-US')} tokens; OpenAI caches from 1,024 in 128-token steps: the unchanged part of the prompt is served from its cache.`);
    } finally {
      await store.close();
    }
  });

  it('DeepSeek (prefix units, no minimum) caches; Ollama reports nothing; "other" promises nothing', async () => {
    const ds = await promptCacheReport(config('deepseek', 'deepseek-v4-flash'), 'en', { dataDir: tmp() });
    expect(ds).toMatchObject({ verdict: 'caches', tokenMethod: 'estimate', suggestedEntries: null });
    expect(promptCacheText('en', ds)).toMatch(/^Your prompt is ~\d+ tokens; DeepSeek caches repeated prompt prefixes with no minimum/);
    const kimi = await promptCacheReport(config('moonshot', 'kimi-k2.6'), 'en', { dataDir: tmp() });
    expect(kimi.verdict).toBe('caches');
    expect(promptCacheText('en', kimi)).toContain('Moonshot AI (Kimi) caches from 256 in 256-token steps');
    const ollama = await promptCacheReport(config('ollama', 'qwen2.5:7b'), 'en', { dataDir: tmp() });
    expect(ollama.verdict).toBe('not-reported');
    const other = await promptCacheReport(config('other', 'x'), 'en', { dataDir: tmp() });
    expect(other).toMatchObject({ verdict: 'unknown', providerLabel: 'p' });
    expect(promptCacheText('en', other)).toMatch(/caching rule is not known .*so no saving is promised\.$/);
  });
});

describe('providerPresets', () => {
  it('one per kind, from the profiles: label, documented base URL, current models, cache rule', () => {
    const presets = providerPresets();
    expect(presets.map((p) => p.kind)).toEqual([...PROVIDER_KINDS]);
    for (const p of presets) {
      const profile = PROFILES[p.kind];
      expect(p).toMatchObject({ label: profile.label, defaultBaseURL: profile.defaultBaseURL, models: [...profile.models] });
      expect(() => new URL(p.defaultBaseURL)).not.toThrow();
      // Every preset is a provider config the schema accepts.
      expect(() => configSchema.parse({ ai_enhance: { providers: { x: { kind: p.kind, base_url: p.defaultBaseURL, models: p.models } } } })).not.toThrow();
    }
    expect(presets.find((p) => p.kind === 'deepseek')?.models).toEqual(['deepseek-v4-flash', 'deepseek-v4-pro']);
  });
});
