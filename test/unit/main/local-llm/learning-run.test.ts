import { describe, expect, it } from 'vitest';
import { reusePerMode, runLearning } from '../../../../bench/lib/learning-run.ts';
import { ensureRandomQwenGguf } from '../../../helpers/gguf-writer.ts';

/**
 * B15's and B5-on-the-engine's run, short, on the small random model with the real Qwen2.5 tokenizer (token reuse
 * depends on tokens and caches, not weights): every dictation of both arms completes through the enhancer on the
 * real engine, the learning arm's prompts are the longer ones and still reuse ≥ 0.85 of their tokens per mode
 * across the mode switches, and through the single-slot server each dictation sent its key-down warm-up.
 */

describe('the cost-of-learning run (short)', () => {
  it('engine: per-mode reuse >= 0.85 with history and vocabulary on, across switches', async () => {
    const r = await runLearning({ modelPath: ensureRandomQwenGguf(), dictations: 10, threads: 1, answerTokens: 4, transport: 'engine', warmUp: true, speakingMsPerChar: 40 });
    expect(r.on.totalMs).toHaveLength(10);
    expect(r.off.totalMs).toHaveLength(10);
    expect(r.on.switched.filter(Boolean)).toHaveLength(1);
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(r.on.promptTokens)).toBeGreaterThan(mean(r.off.promptTokens) + 150);
    for (const [mode, share] of Object.entries(reusePerMode(r.on))) expect(share, mode).toBeGreaterThanOrEqual(0.85);
  }, 120_000);

  it('single-slot server: the key-down warm-up request is sent for every dictation', async () => {
    const r = await runLearning({ modelPath: ensureRandomQwenGguf(), dictations: 6, threads: 1, answerTokens: 4, transport: 'server', warmUp: true, speakingMsPerChar: 40 });
    expect(r.on.warmUps).toBe(6);
    expect(r.on.cachedTokens.slice(1).every((c, i) => c > 0.5 * (r.on.promptTokens[i + 1] ?? 0))).toBe(true);
  }, 120_000);
});
