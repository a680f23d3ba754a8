import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Enhancer, type EnhancerSettings } from '../../src/main/enhance/enhancer.ts';
import { LocalBridge } from '../../src/main/enhance/local-llm/local-bridge.ts';
import { nodeLlmLauncher } from '../../src/main/enhance/local-llm/llm-launcher.ts';
import { LocalLlm } from '../../src/main/enhance/local-llm/local-llm.ts';
import { loadParamsFor } from '../../src/main/enhance/local-llm/local-provider.ts';
import type { LlmProvider } from '../../src/main/enhance/llm-client.ts';
import { VocabularyStore } from '../../src/main/enhance/vocabulary-store.ts';
import { HistoryStore } from '../../src/main/history/store/history-store.ts';
import type { NewHistoryRecord } from '../../src/shared/history/record.ts';
import { mulberry32 } from '../../test/helpers/seeded-random.ts';
import { vocabulary as names } from './generate.ts';
import { startSlotServer, type SlotServer } from './llm-slot-server.ts';

/*
 * The run behind B15 (the cost of learning) and B5 on the engine: a scripted series of dictations in two
 * modes (one switch in five), each through Tingxie's own enhancer on the real engine (a random-weight GGUF
 * with real dimensions and the real Qwen2.5 tokenizer), as the app runs them: at key-down the mode's stable
 * prefix is warmed (Enhancer.prewarm) while the user speaks (a realistic 250 ms per character, Chinese at
 * ~4 characters a second), at key-up the request is timed until the answer is complete, and the confirmed
 * text is appended to the history as the app does. Two arms over the same dictations, interleaved so both
 * see the same machine load: history + vocabulary on, and both off. `transport` 'server' sends the same
 * through a single-slot OpenAI-compatible server on the engine (llm-slot-server.ts), with or without the
 * key-down warm-up request (server-warm-up.ts).
 */

/** What one run is made of. */
export interface LearningRunOptions {
  readonly modelPath: string;
  readonly dictations: number;
  readonly threads: number;
  readonly answerTokens: number;
  readonly transport: 'engine' | 'server';
  /** Warm the prefix at key-down (the engine always can; for the server it is the warm-up request). */
  readonly warmUp: boolean;
  /** Speaking time per character of the dictation (ms). */
  readonly speakingMsPerChar?: number;
  readonly seed?: number;
}

/** One arm's measurements, one entry per dictation. */
export interface ArmResult {
  readonly totalMs: number[];
  readonly firstTokenMs: number[];
  readonly promptTokens: number[];
  readonly cachedTokens: number[];
  readonly modes: string[];
  readonly switched: boolean[];
  readonly warmUps: number;
}

const MODES = ['proofread', 'translate_en'] as const;
const TEMPLATES = [
  '今天在公园里遇到了{n}', '明天上午十点和{n}开会讨论项目进度', '帮我给{n}发一封邮件说新版本已经上线了', '周末去吃饭的时候记得带上{n}',
  '{n}说需求还要再确认一下', '没问题我下午三点前把文档整理好发给{n}', '请把{n}提的修改合并到主分支', '下周一之前提交预算表给{n}',
];
const CONFUSE: Readonly<Record<string, string>> = { 萍: '平', 芳: '方', 静: '晶', 娜: '那', 丽: '立', 伟: '为', 明: '名', 杰: '洁' };

interface Dictation {
  readonly mode: (typeof MODES)[number];
  readonly asr: string;
  readonly final: string;
}

/** The scripted dictations: recurring names, a third misheard, the mode switching on every fifth. */
export function scriptedDictations(n: number, seed: number): Dictation[] {
  const r = mulberry32(seed);
  const pool = names(seed).names.slice(0, 24);
  const out: Dictation[] = [];
  let mode = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 5 === 0) mode = 1 - mode;
    const name = pool[Math.floor(r() ** 2 * pool.length)] ?? '萍萍';
    const final = `${(TEMPLATES[Math.floor(r() * TEMPLATES.length)] ?? '{n}').replace('{n}', name)}。`;
    const misheard = r() < 0.35 ? [...name].map((c) => CONFUSE[c] ?? c).join('') : name;
    out.push({ mode: MODES[mode] ?? 'proofread', asr: final.replace(name, misheard).replace(/。$/, ''), final });
  }
  return out;
}

function record(mode: string, d: Dictation): NewHistoryRecord {
  return {
    asr_text: d.asr, enhanced_text: d.final, final_text: d.final, enhance_mode: mode, preview_enabled: true, stt_model: 'whisper-small',
    llm_model: 'qwen2.5', user_corrected: d.asr !== d.final, audio_duration: 3, language: 'zh', source: 'voice',
  };
}

interface Arm {
  readonly learning: boolean;
  readonly enhancer: Enhancer;
  readonly store: HistoryStore;
  readonly llm: LocalLlm;
  readonly server: SlotServer | null;
  readonly result: ArmResult & { warmUps: number };
  close(): Promise<void>;
}

async function openArm(o: LearningRunOptions, learning: boolean, seed: number): Promise<Arm> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b15-'));
  const store = await HistoryStore.open({ dataDir: dir, warn: () => {} });
  const vocab = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  // A history the user already has (15 confirmed dictations per mode) and a vocabulary of misheard names.
  for (const [i, d] of scriptedDictations(30, seed + 1).entries()) await store.log(record(MODES[i % 2] ?? 'proofread', d));
  for (const [w, rt] of Object.entries(CONFUSE)) vocab.add({ wrong: `${rt}${rt}`, right: `${w}${w}` });
  const llm = new LocalLlm({ launcher: nodeLlmLauncher({ env: { ...process.env, TINGXIE_LLM_GPU: 'off' } }), idleUnloadMs: () => 0 });
  const engine = { contextSize: 4096, threads: o.threads, maxSequences: 2, memoryMb: 2048, idleUnloadMinutes: 0 };
  let server: SlotServer | null = null;
  let provider: LlmProvider;
  let local: LocalBridge | null = null;
  if (o.transport === 'server') {
    server = await startSlotServer(llm, loadParamsFor(o.modelPath, { ...engine, maxSequences: 1 }), { answerTokens: o.answerTokens });
    provider = { id: 'bench', kind: 'llamacpp', baseURL: server.baseURL, apiKey: undefined };
  } else {
    local = new LocalBridge({ llm, dataDir: dir, settings: () => engine, answerTokens: o.answerTokens });
    provider = { id: 'bench', kind: 'local', baseURL: 'http://localhost/', apiKey: undefined };
  }
  const settings: EnhancerSettings = {
    mode: 'proofread', providerId: 'bench', model: o.transport === 'server' ? 'qwen2.5-0.5b-instruct' : o.modelPath, thinking: false, lang: 'zh',
    timeoutMs: 600_000, connectTimeoutMs: 600_000, maxRetries: 0, maxOutputTokens: o.answerTokens, contextWindow: 4096,
    history: { enabled: learning, maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 6000 }, vocabulary: { enabled: learning, maxLlmEntries: 5 }, contextNote: '',
    warmUp: o.warmUp ? 'local' : 'off',
  };
  // The model is loaded before the first dictation (the app loads it when AI is on): B15 compares prompts, not loads.
  await llm.load(loadParamsFor(o.modelPath, o.transport === 'server' ? { ...engine, maxSequences: 1 } : engine));
  const enhancer = await Enhancer.open({ dataDir: dir, history: store, corrections: null, vocabulary: vocab, local, provider: () => provider }, settings);
  const result = { totalMs: [], firstTokenMs: [], promptTokens: [], cachedTokens: [], modes: [], switched: [], warmUps: 0 };
  return {
    learning, enhancer, store, llm, server, result,
    async close() {
      enhancer.close();
      await server?.close();
      await llm.shutdown();
      vocab.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function dictate(arm: Arm, d: Dictation, switched: boolean, speakingMs: number, warmUp: boolean): Promise<void> {
  // Key-down: the warm-up runs while the user speaks; key-up comes after the speaking time (or once the warm-up
  // is done, whichever is first: an idle engine waiting out the rest of the speech changes nothing measured).
  const warm = warmUp ? arm.enhancer.prewarm(d.mode) : Promise.resolve(null);
  await Promise.race([warm, sleep(speakingMs)]);
  const t0 = performance.now();
  let first = NaN;
  const r = await arm.enhancer.enhance({ text: d.asr, mode: d.mode, onEvent: () => void (Number.isNaN(first) && (first = performance.now() - t0)) });

  const total = performance.now() - t0;
  if (r.reason !== null && !['truncated', 'diverged', 'empty'].includes(r.reason.code)) throw new Error(`B15: ${r.reason.code}: ${r.reason.message}`);
  await warm;
  const res = arm.result;
  res.totalMs.push(total);
  res.firstTokenMs.push(first);
  res.promptTokens.push(r.usage?.prompt_tokens ?? 0);
  res.cachedTokens.push(r.usage?.cached_tokens ?? 0);
  res.modes.push(d.mode);
  res.switched.push(switched);
  // Confirmed: the app appends the record to the history (the engine re-warms the recent modes in the background).
  await arm.store.log(record(d.mode, d));
}

/** Reuse (cached/prompt tokens) per mode of one arm. */
export function reusePerMode(a: ArmResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const mode of new Set(a.modes)) {
    let p = 0;
    let c = 0;
    a.modes.forEach((m, i) => {
      if (m !== mode) return;
      p += a.promptTokens[i] ?? 0;
      c += a.cachedTokens[i] ?? 0;
    });
    out[mode] = p > 0 ? c / p : 0;
  }
  return out;
}

/** Runs both arms over the same dictations; returns their measurements. */
export async function runLearning(o: LearningRunOptions): Promise<{ on: ArmResult; off: ArmResult }> {
  const seed = o.seed ?? 15;
  const list = scriptedDictations(o.dictations, seed);
  const on = await openArm(o, true, seed);
  const off = await openArm(o, false, seed);
  try {
    for (const [i, d] of list.entries()) {
      const speakingMs = [...d.asr].length * (o.speakingMsPerChar ?? 250);
      const switched = i > 0 && list[i - 1]?.mode !== d.mode;
      // Alternate which arm goes first, so neither always runs right after the other.
      for (const arm of i % 2 === 0 ? [on, off] : [off, on]) await dictate(arm, d, switched, speakingMs, o.warmUp);
    }
    on.result.warmUps = on.server?.counts.warmUps ?? 0;
    off.result.warmUps = off.server?.counts.warmUps ?? 0;
    return { on: on.result, off: off.result };
  } finally {
    await on.close();
    await off.close();
  }
}
