import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Enhancer } from '../../../../src/main/enhance/enhancer.ts';
import { LocalBridge } from '../../../../src/main/enhance/local-llm/local-bridge.ts';
import { nodeLlmLauncher } from '../../../../src/main/enhance/local-llm/llm-launcher.ts';
import { LocalLlm } from '../../../../src/main/enhance/local-llm/local-llm.ts';
import { VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { ensureRandomQwenGguf } from '../../../helpers/gguf-writer.ts';
import { confirmed, testSettings } from '../enhance/enhance-fixture.ts';

/**
 * The built-in engine through the enhancer, like any provider: a real history store and vocabulary, the key-down
 * warm-up of the mode's stable prefix, the request at key-up reusing it (cached tokens in the usage the record
 * and the stats read), a mode switch that keeps each mode's prefix, and the guard's decision on the random
 * model's gibberish (never the engine's crash or a timeout).
 */

let dir: string;
let history: HistoryStore;
let vocabulary: VocabularyStore;
let llm: LocalLlm;
let enhancer: Enhancer;

beforeAll(async () => {
  const model = ensureRandomQwenGguf();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-local-'));
  history = await HistoryStore.open({ dataDir: dir, warn: () => {} });
  vocabulary = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  for (let i = 0; i < 8; i++) await history.log(confirmed('proofread', `我们第${i}次讨论听写的发部计划`, `我们第${i}次讨论听写的发布计划`));
  for (let i = 0; i < 4; i++) await history.log(confirmed('translate', `第${i}句要翻译的话`, `Sentence ${i} to translate`));
  vocabulary.add({ wrong: '平平', right: '萍萍' });
  vocabulary.add({ wrong: '听些', right: '听写' });
  llm = new LocalLlm({ launcher: nodeLlmLauncher({ env: { ...process.env, TINGXIE_LLM_GPU: 'off' } }), idleUnloadMs: () => 0 });
  const local = new LocalBridge({ llm, dataDir: dir, settings: () => ({ contextSize: 2048, threads: 1, maxSequences: 2, memoryMb: 2048, idleUnloadMinutes: 0 }) });
  enhancer = await Enhancer.open(
    { dataDir: dir, history, vocabulary, local, provider: (id) => (id === 'local' ? { id, kind: 'local', baseURL: 'http://localhost/', apiKey: undefined } : undefined) },
    testSettings({ providerId: 'local', model, timeoutMs: 60_000, maxOutputTokens: 24 }),
  );
}, 120_000);

afterAll(async () => {
  enhancer?.close();
  await llm?.shutdown();
  vocabulary?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the built-in engine as a provider', { timeout: 180_000 }, () => {
  it('warms the stable prefix at key-down; the request at key-up reuses it; a switch keeps each mode warm', async () => {
    const warm = await enhancer.prewarm('proofread');
    expect(warm).not.toBeNull();
    expect(warm?.tokens).toBeGreaterThan(100); // mode prompt + header + 8 history lines + vocabulary
    const first = await enhancer.enhance({ text: '平平说听些的发布计划明天定', mode: 'proofread' });
    expect(first.usage?.cached_tokens).toBe(warm?.tokens);
    expect(first.usage?.prompt_tokens).toBeGreaterThan(warm?.tokens ?? 0);
    // Random weights answer gibberish: the guard (or the empty-answer check) keeps the raw text; never a crash or timeout.
    expect(['enhanced', 'guarded', 'fallback']).toContain(first.status);
    expect(first.reason?.code ?? 'diverged').toMatch(/^(diverged|empty|truncated)$/);

    await enhancer.prewarm('translate');
    const other = await enhancer.enhance({ text: '这句话翻译成英文', mode: 'translate' });
    expect((other.usage?.cached_tokens ?? 0) / (other.usage?.prompt_tokens ?? 1)).toBeGreaterThan(0.5);

    const back = await enhancer.enhance({ text: '另一句需要校对的话', mode: 'proofread' });
    const reuse = (back.usage?.cached_tokens ?? 0) / (back.usage?.prompt_tokens ?? 1);
    expect(back.usage?.cached_tokens).toBeGreaterThanOrEqual(warm?.tokens ?? Infinity);
    expect(reuse).toBeGreaterThan(0.85);
  });

  it('puts everything that depends on the input after the warmed prefix', async () => {
    const built = await enhancer.buildRequest('平平说听些的发布计划明天定', 'proofread', '微信');
    const system = String(built?.request.messages[0]?.content);
    expect(system.startsWith(built?.request.stablePrefix ?? '\u0000')).toBe(true);
    const tail = system.slice(built?.request.stablePrefix.length);
    expect(tail).toContain('微信');
    expect(built?.request.stablePrefix).toContain('我们第7次讨论听写的发[部→布]计划');
  });
});
