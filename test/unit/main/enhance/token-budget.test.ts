import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Enhancer, type EnhancerSettings } from '../../../../src/main/enhance/enhancer.ts';
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS, tokenCounterFor } from '../../../../src/main/enhance/token-count.ts';
import { VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { confirmed, testSettings } from './enhance-fixture.ts';

/**
 * Token budget enforcement (issue item 6c) with an injected small context window: the prompt never
 * exceeds it, the oldest history lines go first, then the retrieved older corrections (tail), then the
 * vocabulary; counts are exact o200k BPE for OpenAI models and the fallback estimate for models without a known
 * tokenizer (GLM here; Qwen, DeepSeek and Llama 3 are exact, see tokenizers.test.ts).
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const INPUT = '孙丽丽说明天和王小明一起去开会';

async function setup(): Promise<{ make: (over: Partial<EnhancerSettings>) => Promise<Enhancer> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, warn: () => {} });
  const vocabulary = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  cleanups.push(async () => {
    await svc.close();
    vocabulary.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  // An old correction (retrieved for INPUT) outside the 20-line window, then 20 numbered lines.
  await svc.log(confirmed('proofread', '我们去找王小明吧', '我们去找汪晓明吧'));
  for (let i = 0; i < 20; i++) await svc.log(confirmed('proofread', `第${String(i).padStart(2, '0')}条历史记录,内容是关于项目进度的讨论`));
  for (const [w, r] of [['孙丽丽', '孙莉莉'], ['平平', '萍萍'], ['问字', 'WenZi']] as const) vocabulary.add({ wrong: w, right: r });
  const make = async (over: Partial<EnhancerSettings>): Promise<Enhancer> => {
    const e = await Enhancer.open(
      { dataDir: dir, history: svc.store, corrections: svc, vocabulary, provider: (id) => ({ id, baseURL: 'http://127.0.0.1:9/v1', apiKey: undefined }) },
      testSettings({ history: { enabled: true, maxEntries: 20, refreshThreshold: 50, maxHistoryChars: 6000 }, ...over }),
    );
    cleanups.unshift(async () => e.close());
    await e.correctionsLoaded();
    return e;
  };
  return { make };
}

function historyNumbers(system: string): number[] {
  return [...system.matchAll(/第(\d\d)条历史记录/g)].map((m) => Number(m[1]));
}

describe('token budget', () => {
  it('never exceeds an injected context window; oldest history first, then the tail, then vocabulary (estimate)', async () => {
    const { make } = await setup();
    const full = await (await make({ model: 'glm4:9b' })).buildRequest(INPUT);
    const fullSystem = full?.request.messages[0]?.content ?? '';
    expect(historyNumbers(fullSystem)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(fullSystem).toContain('我们去找[王小→汪晓]明吧');
    expect(fullSystem).toContain('"孙丽丽" → "孙莉莉"');
    const fullTokens = estimateTokens(fullSystem) + estimateTokens(INPUT) + 2 * MESSAGE_OVERHEAD_TOKENS;

    const stages: string[] = [];
    for (let window = fullTokens + 256 + 40; window >= 300; window -= 7) {
      // A fresh enhancer per window: trimming makes the shorter list the builder's new base.
      const built = (await (await make({ model: 'glm4:9b', contextWindow: window })).buildRequest(INPUT))?.request;
      if (!built) throw new Error('no request');
      const system = built.messages[0]?.content ?? '';
      const counted = estimateTokens(system) + estimateTokens(INPUT) + 2 * MESSAGE_OVERHEAD_TOKENS;
      const maxTokens = built.body.max_tokens as number;
      if (built.tooLong) continue;
      expect(counted).toBe(built.promptTokens);
      expect(built.promptTokens + maxTokens).toBeLessThanOrEqual(window);
      expect(built.promptTokens).toBeLessThanOrEqual(window - 256);
      // What is kept of the history is always its newest part.
      const kept = historyNumbers(system);
      expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 20 - kept.length + i));
      const retrieved = system.includes('相关的更早纠错');
      const vocab = system.includes('\n词库：');
      if (kept.length > 0) expect(retrieved && vocab).toBe(true); // the tail goes only once the history is gone…
      if (!vocab) expect(retrieved).toBe(false); // …and the vocabulary only after the tail
      const stage = kept.length === 20 ? 'full' : kept.length > 0 ? 'history-trimmed' : retrieved ? 'no-history' : vocab ? 'no-tail' : 'bare';
      if (stages.at(-1) !== stage) stages.push(stage);
    }
    expect(stages).toEqual(['full', 'history-trimmed', 'no-history', 'no-tail', 'bare']);
  });

  it('counts with the real o200k tokenizer for OpenAI models and reports an impossible fit', async () => {
    const { make } = await setup();
    const counter = tokenCounterFor('gpt-4o-mini');
    expect(counter.method).toBe('bpe');
    expect(tokenCounterFor('glm4:9b').method).toBe('estimate'); // GLM has no offline tokenizer package
    expect(tokenCounterFor('qwen2.5:7b').method).toBe('bpe'); // tokenizers.test.ts checks its counts
    expect(counter.count(INPUT)).toBe(o200kCount(INPUT));
    expect(counter.count(INPUT)).not.toBe(estimateTokens(INPUT)); // the two really differ on this text
    const e = await make({ model: 'gpt-4o-mini', contextWindow: 1000 });
    const built = (await e.buildRequest(INPUT))?.request;
    if (!built) throw new Error('no request');
    const system = built.messages[0]?.content ?? '';
    expect(built.tokenMethod).toBe('bpe');
    expect(built.promptTokens).toBe(o200kCount(system) + o200kCount(INPUT) + 2 * MESSAGE_OVERHEAD_TOKENS);
    expect(built.promptTokens + (built.body.max_tokens as number)).toBeLessThanOrEqual(1000);
    expect(historyNumbers(system).length).toBeLessThan(20);
    // A window the bare prompt cannot fit: the request is refused before sending, the raw text comes back.
    const tiny = await make({ model: 'gpt-4o-mini', contextWindow: 300 });
    expect((await tiny.buildRequest(INPUT))?.request.tooLong).toBe(true);
    const r = await tiny.enhance({ text: INPUT });
    expect(r).toMatchObject({ status: 'fallback', text: INPUT, reason: { code: 'too-long' } });
  });
});
