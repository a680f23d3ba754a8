import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Enhancer, type EnhancerSettings } from '../src/main/enhance/enhancer.ts';
import { VocabularyStore } from '../src/main/enhance/vocabulary-store.ts';
import { HistoryStore } from '../src/main/history/store/history-store.ts';
import { vocabulary } from './lib/generate.ts';
import { mulberry32 } from '../test/helpers/seeded-random.ts';
import { mergeResults, pct, printEntry, type BenchEntry } from './lib/report.ts';

/**
 * B8 (prompt-building part): time to build one enhancement request (history section, vocabulary,
 * retrieval, system prompt, token budget, body) with history on, a warm store, and a record logged
 * before every third build so the append path is measured too (the log itself is not timed).
 * Target: p95 ≤ 1 ms. Measured for an estimated-token model (glm4:9b), an exact-BPE one (gpt-4o-mini) and
 * qwen2.5:7b with its own tokenizer at Ollama's small window (2048), where every build counts exactly and
 * trims the history (the per-line memo of tokenizers.ts keeps that to the new lines).
 */

async function measure(model: string, builds: number, contextWindow?: number): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b8-'));
  const store = await HistoryStore.open({ dataDir: dir, warn: () => {} });
  const vocab = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  try {
    const r = mulberry32(8);
    const names = vocabulary(8).names.slice(0, 200);
    const line = (): string => `明天上午和${names[Math.floor(r() * names.length)] ?? '萍萍'}开会讨论 Kubernetes 的迁移计划`;
    const log = (): Promise<unknown> =>
      store.log({ asr_text: line(), enhanced_text: null, final_text: line(), enhance_mode: 'proofread', preview_enabled: true, stt_model: 's', llm_model: model, user_corrected: true, audio_duration: 2, language: 'zh', source: 'voice' });
    for (let i = 0; i < 60; i++) await log();
    for (let i = 0; i < 50; i++) vocab.add({ wrong: `词${i}`, right: names[i] ?? `名${i}` });
    const settings: EnhancerSettings = {
      mode: 'proofread', providerId: 'p', model, thinking: false, lang: 'zh', timeoutMs: 10_000, connectTimeoutMs: 10_000, maxRetries: 2, maxOutputTokens: 4096,
      history: { enabled: true, maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 6000 }, vocabulary: { enabled: true, maxLlmEntries: 5 }, contextNote: '我的女儿叫果果。',
      ...(contextWindow !== undefined ? { contextWindow } : {}),
    };
    const enhancer = await Enhancer.open({ dataDir: dir, history: store, vocabulary: vocab, provider: () => ({ id: 'p', baseURL: 'http://127.0.0.1:9/v1', apiKey: undefined }) }, settings);
    for (let i = 0; i < 20; i++) await enhancer.buildRequest(line()); // warm-up (JIT, tokenizer load)
    const times: number[] = [];
    for (let i = 0; i < builds; i++) {
      if (i % 3 === 0) await log();
      const text = line();
      const t = performance.now();
      await enhancer.buildRequest(text);
      times.push(performance.now() - t);
    }
    return times;
  } finally {
    vocab.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs B8's prompt-building measurement. */
export async function runB8(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  const builds = opts.quick === true ? 300 : 1000;
  const est = await measure('glm4:9b', builds);
  const bpe = await measure('gpt-4o-mini', builds);
  const qwen = await measure('qwen2.5:7b', builds, 2048);
  const p95 = Math.max(pct(est, 95), pct(bpe, 95), pct(qwen, 95));
  return {
    ratio: p95 / 1,
    target: 'prompt building p95 <= 1 ms (ratio = p95 / 1 ms)',
    pass: p95 <= 1,
    figures: {
      builds_per_model: builds,
      p50_ms_estimate_model: pct(est, 50), p95_ms_estimate_model: pct(est, 95), p99_ms_estimate_model: pct(est, 99),
      p50_ms_bpe_model: pct(bpe, 50), p95_ms_bpe_model: pct(bpe, 95), p99_ms_bpe_model: pct(bpe, 99),
      p50_ms_qwen_exact_2048: pct(qwen, 50), p95_ms_qwen_exact_2048: pct(qwen, 95), p99_ms_qwen_exact_2048: pct(qwen, 99),
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const e = await runB8({ quick: process.argv.includes('--quick') });
  printEntry('B8', e);
  mergeResults({ B8: e });
}
