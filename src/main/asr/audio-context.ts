/**
 * Whisper's encoder always processes a 30 s window (1500 frames), so a 3 s dictation costs as much as a
 * 30 s one. Shrinking the window (`audio_ctx`) in proportion to the clip cuts that cost roughly in
 * proportion (https://github.com/ggml-org/whisper.cpp/issues/1855, and Handy's adaptive window). Too
 * small a window makes the decoder loop or hallucinate, and applying it to long audio ruins accuracy, so it is used only for short clips,
 * never below a 10 s window, with a second of slack.
 */

/** Frames of whisper's full encoder window (30 s). */
export const FULL_AUDIO_CTX = 1500;
/** Smallest window used, in seconds of audio. */
export const MIN_WINDOW_SECONDS = 10;
/** Clips longer than this use the full window. */
export const MAX_ADAPTIVE_SECONDS = 20;

/** The encoder window for a clip of `seconds` (0 = whisper's default, the full 30 s). */
export function adaptiveAudioCtx(seconds: number, enabled = true): number {
  if (!enabled || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_ADAPTIVE_SECONDS) return 0;
  const windowSeconds = Math.max(MIN_WINDOW_SECONDS, seconds + 1);
  // Whole multiples of 8 frames keep the encoder's tensor shapes tidy.
  return Math.min(FULL_AUDIO_CTX, Math.ceil(((windowSeconds / 30) * FULL_AUDIO_CTX) / 8) * 8);
}
