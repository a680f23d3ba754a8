import { describe, expect, it } from 'vitest';
import { adaptiveAudioCtx, FULL_AUDIO_CTX, MAX_ADAPTIVE_SECONDS } from '../../../../src/main/asr/audio-context.ts';

describe('adaptive encoder window', () => {
  it('never goes below a 10 s window, adds a second of slack, in multiples of 8 frames', () => {
    expect(adaptiveAudioCtx(1.25)).toBe(504); // 10 s floor = 500 frames → 504
    expect(adaptiveAudioCtx(3)).toBe(504);
    expect(adaptiveAudioCtx(12)).toBe(656); // 13 s = 650 frames → 656
    for (const s of [0.5, 3, 9.9, 14.2, 19.9]) {
      const ctx = adaptiveAudioCtx(s);
      expect(ctx % 8).toBe(0);
      expect(ctx / FULL_AUDIO_CTX * 30).toBeGreaterThanOrEqual(Math.max(10, s + 1) - 1e-9);
    }
  });

  it('uses the full 30 s window for longer clips, when switched off, and for nonsense durations', () => {
    expect(adaptiveAudioCtx(MAX_ADAPTIVE_SECONDS + 0.1)).toBe(0);
    expect(adaptiveAudioCtx(60)).toBe(0);
    expect(adaptiveAudioCtx(3, false)).toBe(0);
    expect(adaptiveAudioCtx(0)).toBe(0);
    expect(adaptiveAudioCtx(Number.NaN)).toBe(0);
    expect(adaptiveAudioCtx(20)).toBe(1056);
  });
});
