import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Enhancer, type EnhancerSettings } from '../src/main/enhance/enhancer.ts';
import { VocabularyStore } from '../src/main/enhance/vocabulary-store.ts';
import { HistoryStore } from '../src/main/history/store/history-store.ts';
import type { NewHistoryRecord } from '../src/shared/history/record.ts';
import type { ProviderKind } from '../src/shared/provider-kinds.ts';
import { startOpenAiTestServer, type ChatUsage } from '../test/helpers/openai-test-server.ts';
import { vocabulary } from './lib/generate.ts';
import { mulberry32 } from '../test/helpers/seeded-random.ts';
import { mergeResults, printEntry, type BenchEntry } from './lib/report.ts';
import { ensureRandomQwenGguf } from '../test/helpers/gguf-writer.ts';
import { reusePerMode, runLearning } from './lib/learning-run.ts';

/**
 * B5: prompt-cache reuse, per provider caching rule. 300 dictations across proofread, translate_en and the
 * proofread → translate_en chain, history injection and vocabulary on, each run against a local server as strict
 * as one provider (test/helpers/strict-providers.ts: its refusals, its usage shape, and its own cache counting on
 * o200k tokens of the prompt), with Tingxie's real request for that provider's profile:
 *
 *   openai     gpt-4o-mini        the shared prefix from 1,024 tokens, in 128-token blocks
 *   deepseek   deepseek-v4-flash  whole prefix units only (earlier prompts and common prefixes of earlier prompts)
 *   dashscope  qwen-plus          the shared prefix once it is 1,024 tokens or more
 *   kimi       kimi-k2.6          the shared prefix in 256-token chunks
 *
 * After each single-mode dictation the user confirms (sometimes correcting a name), so history grows.
 * Baseline, same run, same dictations, same provider: a builder that rebuilds the last `max_entries` lines on
 * every request (a sliding window: refresh_threshold = max_entries + 1), which is what a naive "inject the last N"
 * implementation sends. Billed input tokens: the uncached ones at full price plus the cached ones at the
 * provider's documented cache-hit price (PRICES below), in full-price token equivalents.
 */

const MODES = ['proofread', 'proofread', 'translate_en', 'proofread_translate_en'] as const;
const TEMPLATES = [
  '今天在公园里遇到了{n}', '明天上午十点和{n}开会讨论项目进度', '帮我给{n}发一封邮件说新版本已经上线了', '周末去吃饭的时候记得带上{n}',
  '{n}说需求还要再确认一下', '没问题我下午三点前把文档整理好发给{n}', '请把 {n} 提的 PR 合并到主分支', '下周一之前提交预算表给{n}',
  'let us schedule a meeting with {n} about the roadmap', 'ok sounds good, I will ping {n} on Slack',
];
/** Homophone confusions ASR makes on names; the confirmed text carries the right one. */
const CONFUSE: Readonly<Record<string, string>> = { 萍: '平', 芳: '方', 静: '晶', 娜: '那', 丽: '立', 伟: '为', 明: '名', 杰: '洁' };

interface Dictation {
  readonly mode: (typeof MODES)[number];
  readonly asr: string;
  readonly final: string;
}

function dictations(n: number, seed: number): Dictation[] {
  const r = mulberry32(seed);
  const names = vocabulary(seed).names.slice(0, 40);
  const out: Dictation[] = [];
  for (let i = 0; i < n; i++) {
    const name = names[Math.floor(r() ** 2 * names.length)] ?? '萍萍';
    const final = `${(TEMPLATES[Math.floor(r() * TEMPLATES.length)] ?? '{n}').replace('{n}', name)}。`;
    const misheard = r() < 0.35 ? [...name].map((c) => CONFUSE[c] ?? c).join('') : name;
    out.push({ mode: MODES[Math.floor(r() * MODES.length)] ?? 'proofread', asr: final.replace(name, misheard).replace(/。$/, ''), final });
  }
  return out;
}

function record(mode: string, asr: string, final: string, model: string): NewHistoryRecord {
  return {
    asr_text: asr, enhanced_text: final, final_text: final, enhance_mode: mode, preview_enabled: true, stt_model: 'whisper-small',
    llm_model: model, user_corrected: asr !== final, audio_duration: 3, language: 'zh', source: 'voice',
  };
}

/** One provider caching rule B5 is reported for. */
interface CacheCase {
  readonly id: 'openai' | 'deepseek' | 'dashscope' | 'kimi';
  readonly kind: ProviderKind;
  readonly model: string;
  /** Price of a cached input token as a share of an uncached one. */
  readonly cachedPrice: number;
}

/*
 * Cache-hit prices, as a share of the uncached input price:
 * - OpenAI gpt-4o-mini: cached input at half price (gpt-4.1 0.25, gpt-5 0.1): https://openai.com/api/pricing,
 *   https://platform.openai.com/docs/guides/prompt-caching
 * - DeepSeek: cache-hit input $0.07 vs cache-miss $0.27 per 1M (0.26; the V4 models' hit price is lower still):
 *   https://api-docs.deepseek.com/quick_start/pricing-details-usd
 * - DashScope implicit cache: hits billed at 20% of the input price: https://www.alibabacloud.com/help/model-studio/context-cache
 * - Kimi K2.5: cache-hit input $0.10 vs cache-miss $0.60 per 1M (K2 preview models $0.15): https://platform.moonshot.ai/docs/pricing/chat
 * The highest of each provider's figures is used, so "billed" never flatters the cache.
 */
const CASES: readonly CacheCase[] = [
  { id: 'openai', kind: 'openai', model: 'gpt-4o-mini', cachedPrice: 0.5 },
  { id: 'deepseek', kind: 'deepseek', model: 'deepseek-v4-flash', cachedPrice: 0.26 },
  { id: 'dashscope', kind: 'dashscope', model: 'qwen-plus', cachedPrice: 0.2 },
  { id: 'kimi', kind: 'moonshot', model: 'kimi-k2.6', cachedPrice: 0.25 },
];

interface PolicyRun {
  readonly cached: number;
  readonly prompt: number;
  readonly requests: number;
  readonly rebuilds: number;
}

/** Cached tokens in whichever field the provider reports them. */
function cachedOf(u: ChatUsage): number {
  return u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? u.cached_tokens ?? 0;
}

async function runPolicy(c: CacheCase, list: readonly Dictation[], seed: number, history: EnhancerSettings['history']): Promise<PolicyRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b5-'));
  const server = await startOpenAiTestServer({ strict: c.kind, chat: (call) => ({ kind: 'text', content: call.messages.at(-1)?.content ?? '' }) });
  const store = await HistoryStore.open({ dataDir: dir, warn: () => {} });
  const vocab = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  try {
    // A history the user already has: 30 confirmed records per single mode, and a vocabulary of names.
    const seedList = dictations(60, seed + 1);
    for (const [i, d] of seedList.entries()) await store.log(record(i % 2 === 0 ? 'proofread' : 'translate_en', d.asr, d.final, c.model));
    for (const [w, rt] of Object.entries(CONFUSE)) vocab.add({ wrong: `${rt}${rt}`, right: `${w}${w}` });
    const settings: EnhancerSettings = {
      mode: 'proofread', providerId: 'bench', model: c.model, thinking: false, lang: 'zh', timeoutMs: 10_000, connectTimeoutMs: 10_000,
      maxRetries: 0, maxOutputTokens: 1024, history, vocabulary: { enabled: true, maxLlmEntries: 5 }, contextNote: '',
    };
    const provider = { id: 'bench', kind: c.kind, baseURL: server.baseURL, apiKey: 'sk-bench' };
    const enhancer = await Enhancer.open({ dataDir: dir, history: store, vocabulary: vocab, provider: () => provider }, settings);
    for (const d of list) {
      const r = await enhancer.enhance({ text: d.asr, mode: d.mode });
      if (r.status !== 'enhanced') throw new Error(`B5 ${c.id}: enhancement failed: ${r.reason?.message ?? r.status}`);
      if (r.historyMode !== null) {
        await store.log(record(r.historyMode, d.asr, d.final, c.model));
        vocab.recordOutcome({ asrText: d.asr, enhancedText: r.text, finalText: d.final, asrModel: 'whisper-small', llmModel: c.model });
      }
    }
    const rebuilds = enhancer.historyBuilder?.reads ?? 0;
    enhancer.close();
    if (server.refusals.length > 0) throw new Error(`B5 ${c.id}: the provider refused ${JSON.stringify(server.refusals[0]?.body)}`);
    if (process.env.B5_DEBUG) for (const [i, u] of server.usages.entries()) console.log(c.id, i, u.prompt_tokens, cachedOf(u));
    return {
      cached: server.usages.reduce((n, u) => n + cachedOf(u), 0),
      prompt: server.usages.reduce((n, u) => n + u.prompt_tokens, 0),
      requests: server.usages.length,
      rebuilds,
    };
  } finally {
    await server.close();
    vocab.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Input tokens billed, in full-price token equivalents. */
function billed(c: CacheCase, r: PolicyRun): number {
  return Math.round(r.prompt - r.cached + r.cached * c.cachedPrice);
}

/**
 * B5 on the built-in engine: real reused KV tokens per mode (cached/prompt tokens the engine reports), over B15's
 * scripted dictations (two modes, one switch in five, the prefix warmed at key-down, each confirmed dictation
 * appended). Token reuse depends on the tokens and the cache, not on the weights, so the small random model with
 * the real Qwen2.5 tokenizer gives the figures 0.5B would, in seconds.
 */
export async function runB5Engine(opts: { quick?: boolean } = {}): Promise<{ pass: boolean; worst: number; figures: Record<string, number> }> {
  const n = opts.quick === true ? 20 : 60;
  const r = await runLearning({ modelPath: ensureRandomQwenGguf(), dictations: n, threads: 1, answerTokens: 8, transport: 'engine', warmUp: true });
  const per = reusePerMode(r.on);
  const worst = Math.min(...Object.values(per));
  const figures: Record<string, number> = { engine_dictations: n };
  for (const [mode, v] of Object.entries(per)) figures[`engine_reused_${mode}`] = v;
  return { pass: worst >= 0.85, worst, figures };
}

/** Runs B5 for every caching rule; `quick` uses 120 dictations instead of 300. */
export async function runB5(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  const n = opts.quick === true ? 120 : 300;
  const seed = 5;
  const list = dictations(n, seed);
  // The seed's tuning guide: with a short mode prompt, raise max_entries so the prefix passes 1024 tokens right after a rebuild (our
  // history lines are short, ~17 tokens, so 40 lines); the baseline uses the same max_entries.
  const maxEntries = 40;
  const figures: Record<string, number | string | boolean> = { dictations: n, max_entries: maxEntries };
  let pass = true;
  let worst = Infinity;
  for (const c of CASES) {
    const ours = await runPolicy(c, list, seed, { enabled: true, maxEntries, refreshThreshold: 50 + maxEntries, maxHistoryChars: 6000 });
    const base = await runPolicy(c, list, seed, { enabled: true, maxEntries, refreshThreshold: maxEntries + 1, maxHistoryChars: 6000 });
    const ratio = ours.cached / ours.prompt;
    const baseline = base.cached / base.prompt;
    const ok = ratio >= 0.85 && ratio > baseline && billed(c, ours) <= billed(c, base);
    pass &&= ok;
    worst = Math.min(worst, ratio);
    Object.assign(figures, {
      [`${c.id}_model`]: c.model,
      [`${c.id}_requests`]: ours.requests,
      [`${c.id}_prompt_tokens`]: ours.prompt,
      [`${c.id}_cached_tokens`]: ours.cached,
      [`${c.id}_cached_ratio`]: ratio,
      [`${c.id}_billed_input_tokens`]: billed(c, ours),
      [`${c.id}_baseline_prompt_tokens`]: base.prompt,
      [`${c.id}_baseline_cached_tokens`]: base.cached,
      [`${c.id}_baseline_cached_ratio`]: baseline,
      [`${c.id}_baseline_billed_input_tokens`]: billed(c, base),
      [`${c.id}_cached_price`]: c.cachedPrice,
      [`${c.id}_history_reads`]: ours.rebuilds,
      [`${c.id}_pass`]: ok,
    });
  }
  const engine = await runB5Engine(opts);
  Object.assign(figures, engine.figures);
  pass &&= engine.pass;
  worst = Math.min(worst, engine.worst);
  return {
    ratio: worst,
    target: 'per caching rule (OpenAI, DeepSeek, DashScope, Kimi): cached/prompt tokens >= 0.85, > baseline (rebuild last max_entries every request), billed input tokens <= baseline; on the built-in engine, reused KV tokens per mode >= 0.85; ratio = the lowest',
    pass,
    figures,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const e = await runB5({ quick: process.argv.includes('--quick') });
  printEntry('B5', e);
  mergeResults({ B5: e });
}
