import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Enhancer, type EnhancerSettings } from '../src/main/enhance/enhancer.ts';
import { VocabularyStore } from '../src/main/enhance/vocabulary-store.ts';
import { HistoryStore } from '../src/main/history/history-store.ts';
import type { NewHistoryRecord } from '../src/shared/history/record.ts';
import { startOpenAiTestServer } from '../test/helpers/openai-test-server.ts';
import { vocabulary } from './lib/generate.ts';
import { mulberry32 } from '../test/helpers/seeded-random.ts';
import { mergeResults, printEntry, type BenchEntry } from './lib/report.ts';

/**
 * B5: prompt-cache reuse. 300 dictations across proofread, translate_en and the proofread → translate_en
 * chain, history injection and vocabulary on, against the local OpenAI-compatible server that counts
 * cached tokens the way OpenAI does (longest shared token prefix, ≥ 1024 tokens, 128-token steps).
 * After each single-mode dictation the user confirms (sometimes correcting a name), so history grows.
 *
 * Baseline, same run, same dictations: a builder that rebuilds the last `max_entries` lines on every
 * request (a sliding window: refresh_threshold = max_entries + 1), which is what a naive "inject the
 * last N" implementation sends.
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

function record(mode: string, asr: string, final: string): NewHistoryRecord {
  return {
    asr_text: asr, enhanced_text: final, final_text: final, enhance_mode: mode, preview_enabled: true, stt_model: 'whisper-small',
    llm_model: 'gpt-4o-mini', user_corrected: asr !== final, audio_duration: 3, language: 'zh', source: 'voice',
  };
}

async function runPolicy(list: readonly Dictation[], seed: number, history: EnhancerSettings['history']): Promise<{ cached: number; prompt: number; requests: number; rebuilds: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b5-'));
  const server = await startOpenAiTestServer({ chat: (c) => ({ kind: 'text', content: c.messages.at(-1)?.content ?? '' }) });
  const store = await HistoryStore.open({ dataDir: dir, warn: () => {} });
  const vocab = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  try {
    // A history the user already has: 30 confirmed records per single mode, and a vocabulary of names.
    const seedList = dictations(60, seed + 1);
    for (const [i, d] of seedList.entries()) await store.log(record(i % 2 === 0 ? 'proofread' : 'translate_en', d.asr, d.final));
    for (const [w, rt] of Object.entries(CONFUSE)) vocab.add({ wrong: `${rt}${rt}`, right: `${w}${w}` });
    const settings: EnhancerSettings = {
      mode: 'proofread', providerId: 'bench', model: 'gpt-4o-mini', thinking: false, lang: 'zh', timeoutMs: 10_000, connectTimeoutMs: 10_000,
      maxRetries: 0, maxOutputTokens: 1024, history, vocabulary: { enabled: true, maxLlmEntries: 5 }, contextNote: '',
    };
    const enhancer = await Enhancer.open({ dataDir: dir, history: store, vocabulary: vocab, provider: () => ({ id: 'bench', baseURL: server.baseURL, apiKey: 'sk-bench' }) }, settings);
    let rebuilds = 0;
    for (const d of list) {
      const r = await enhancer.enhance({ text: d.asr, mode: d.mode });
      if (r.status !== 'enhanced') throw new Error(`B5: enhancement failed: ${r.reason?.message ?? r.status}`);
      if (r.historyMode !== null) {
        await store.log(record(r.historyMode, d.asr, d.final));
        vocab.recordOutcome({ asrText: d.asr, enhancedText: r.text, finalText: d.final, asrModel: 'whisper-small', llmModel: 'gpt-4o-mini' });
      }
    }
    rebuilds = enhancer.historyBuilder?.reads ?? 0;
    if (process.env.B5_DEBUG) for (const [i, u] of server.usages.entries()) console.log(i, (server.requests[i]?.json as {messages:{content:string}[]}).messages[0]?.content.slice(0, 12), u.prompt_tokens, u.prompt_tokens_details?.cached_tokens);
    const cached = server.usages.reduce((n, u) => n + (u.prompt_tokens_details?.cached_tokens ?? 0), 0);
    const prompt = server.usages.reduce((n, u) => n + u.prompt_tokens, 0);
    return { cached, prompt, requests: server.usages.length, rebuilds };
  } finally {
    await server.close();
    vocab.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs B5; `quick` uses 120 dictations instead of 300. */
export async function runB5(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  const n = opts.quick === true ? 120 : 300;
  const seed = 5;
  const list = dictations(n, seed);
  // The seed's tuning guide: with a short mode prompt, raise max_entries so the prefix passes 1024 tokens right after a rebuild (our
  // history lines are short, ~17 tokens, so 40 lines); the baseline uses the same max_entries.
  const maxEntries = 40;
  const ours = await runPolicy(list, seed, { enabled: true, maxEntries, refreshThreshold: 50 + maxEntries, maxHistoryChars: 6000 });
  const base = await runPolicy(list, seed, { enabled: true, maxEntries, refreshThreshold: maxEntries + 1, maxHistoryChars: 6000 });
  const ratio = ours.cached / ours.prompt;
  const baseline = base.cached / base.prompt;
  return {
    ratio,
    target: 'cached/prompt tokens >= 0.85 and > baseline (rebuild last max_entries every request)',
    pass: ratio >= 0.85 && ratio > baseline,
    figures: {
      dictations: n, requests: ours.requests, prompt_tokens: ours.prompt, cached_tokens: ours.cached, cached_ratio: ratio,
      baseline_prompt_tokens: base.prompt, baseline_cached_tokens: base.cached, baseline_cached_ratio: baseline, max_entries: maxEntries, history_reads: ours.rebuilds,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const e = await runB5({ quick: process.argv.includes('--quick') });
  printEntry('B5', e);
  mergeResults({ B5: e });
}
