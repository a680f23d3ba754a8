import { ensureRandomQwenGguf, QWEN25_05B, QWEN25_15B, type QwenShape } from '../test/helpers/gguf-writer.ts';
import { reusePerMode, runLearning, type ArmResult, type LearningRunOptions } from './lib/learning-run.ts';
import { mergeResults, pct, printEntry, type BenchEntry } from './lib/report.ts';

/**
 * B15, the cost of learning: key-up → enhanced text complete with history + vocabulary on, the mode's prefix
 * warmed at key-down during a realistic speaking time, vs the same dictations with both off, same engine, same
 * run (bench/lib/learning-run.ts: 60 dictations, two modes, one switch in five, each confirmed dictation
 * appended to the history). Target p50 ≤ 1.3×, p95 ≤ 1.5×. The engine is llama.cpp (node-llama-cpp) on a
 * random-weight GGUF with Qwen2.5-0.5B's (and in the full run -1.5B's) dimensions and the real tokenizer;
 * every answer is exactly ANSWER_TOKENS tokens (end-of-turn ignored) so the arms compare. Also reported beside
 * it: the same run through a single-slot OpenAI-compatible server on the engine, with and without the
 * key-down warm-up request (item 5: bench/lib/llm-slot-server.ts, src/main/enhance/server-warm-up.ts).
 * Absolute times depend on the machine (threads: B15_THREADS, default 1); the ratios are what counts.
 */

/** Tokens of every answer. */
const ANSWER_TOKENS = 24;

/** p50/p95 of one arm, and the reuse of its prompts (cached/prompt tokens, summed). */
function summary(a: ArmResult): { p50: number; p95: number; ft50: number; reuse: number; prompt: number } {
  const prompt = a.promptTokens.reduce((x, y) => x + y, 0);
  const cached = a.cachedTokens.reduce((x, y) => x + y, 0);
  return { p50: pct(a.totalMs, 50), p95: pct(a.totalMs, 95), ft50: pct(a.firstTokenMs, 50), reuse: prompt > 0 ? cached / prompt : 0, prompt: prompt / Math.max(1, a.promptTokens.length) };
}

/** Figures of one on/off pair, prefixed. */
function pairFigures(prefix: string, on: ArmResult, off: ArmResult): { figures: Record<string, number>; p50: number; p95: number } {
  const a = summary(on);
  const b = summary(off);
  const switchP50 = pct(on.totalMs.filter((_, i) => on.switched[i]), 50);
  const sameP50 = pct(on.totalMs.filter((_, i) => !on.switched[i]), 50);
  return {
    p50: a.p50 / b.p50,
    p95: a.p95 / b.p95,
    figures: {
      [`${prefix}p50_ratio`]: a.p50 / b.p50, [`${prefix}p95_ratio`]: a.p95 / b.p95,
      [`${prefix}on_p50_ms`]: a.p50, [`${prefix}on_p95_ms`]: a.p95, [`${prefix}off_p50_ms`]: b.p50, [`${prefix}off_p95_ms`]: b.p95,
      [`${prefix}on_first_token_p50_ms`]: a.ft50, [`${prefix}off_first_token_p50_ms`]: b.ft50,
      [`${prefix}on_prompt_tokens_mean`]: a.prompt, [`${prefix}off_prompt_tokens_mean`]: b.prompt,
      [`${prefix}on_reused_share`]: a.reuse, [`${prefix}off_reused_share`]: b.reuse,
      [`${prefix}on_after_switch_p50_ms`]: switchP50, [`${prefix}on_same_mode_p50_ms`]: sameP50,
      [`${prefix}over_10s`]: on.totalMs.filter((t) => t > 10_000).length,
    },
  };
}

/** One shape's engine run, and the same through the single-slot server with and without the warm-up. */
async function runShape(shape: QwenShape, o: { dictations: number; threads: number; server: boolean }, figures: Record<string, number | string | boolean>): Promise<{ p50: number; p95: number }> {
  const modelPath = ensureRandomQwenGguf({ shape });
  const base: Omit<LearningRunOptions, 'transport' | 'warmUp'> = { modelPath, dictations: o.dictations, threads: o.threads, answerTokens: ANSWER_TOKENS };
  const engine = await runLearning({ ...base, transport: 'engine', warmUp: true });
  const e = pairFigures(`${shape.name}_engine_`, engine.on, engine.off);
  Object.assign(figures, e.figures);
  for (const [mode, r] of Object.entries(reusePerMode(engine.on))) figures[`${shape.name}_engine_on_reused_${mode}`] = r;
  if (o.server) {
    for (const warmUp of [true, false]) {
      const s = await runLearning({ ...base, transport: 'server', warmUp });
      const tag = `${shape.name}_server_${warmUp ? 'warm' : 'cold'}_`;
      Object.assign(figures, pairFigures(tag, s.on, s.off).figures);
      figures[`${tag}warm_up_requests`] = s.on.warmUps + s.off.warmUps;
    }
  }
  return e;
}

/** B15: 0.5B (quick: 30 dictations, no server runs) and, in the full run, 1.5B and the single-slot server. */
export async function runB15(opts: { quick?: boolean } = {}): Promise<BenchEntry> {
  const quick = opts.quick === true;
  const threads = Number(process.env.B15_THREADS ?? 1);
  const dictations = quick ? 30 : 60;
  const figures: Record<string, number | string | boolean> = { dictations, answer_tokens: ANSWER_TOKENS, threads, speaking_ms_per_char: 250 };
  const shapes = quick ? [QWEN25_05B] : [QWEN25_05B, QWEN25_15B];
  let worst = { p50: 0, p95: 0 };
  for (const shape of shapes) {
    const r = await runShape(shape, { dictations, threads, server: !quick && shape === QWEN25_05B }, figures);
    worst = { p50: Math.max(worst.p50, r.p50), p95: Math.max(worst.p95, r.p95) };
  }
  return {
    ratio: worst.p50,
    target: 'key-up → answer complete, history + vocabulary on vs off, built-in engine, prefix warmed while speaking: p50 <= 1.3x and p95 <= 1.5x (ratio = the worst p50 over the model sizes)',
    pass: worst.p50 <= 1.3 && worst.p95 <= 1.5,
    figures,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const e = await runB15({ quick: process.argv.includes('--quick') });
  printEntry('B15', e);
  mergeResults({ B15: e });
}
