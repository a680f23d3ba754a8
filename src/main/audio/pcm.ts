/*
 * PCM conventions of the audio pipeline: mono Float32 samples in [-1, 1] at 16 kHz, the rate whisper
 * and Silero VAD expect. Capture may run at any rate; resample.ts converts on arrival.
 */

/** Sample rate of everything after capture. */
export const SAMPLE_RATE = 16_000;

/** Hard cap of one recording (seconds); longer audio is cut with a notice. */
export const MAX_RECORDING_SECONDS = 120;

/** Duration in seconds of `samples` at `sampleRate`. */
export function durationSeconds(samples: ArrayLike<number>, sampleRate = SAMPLE_RATE): number {
  return samples.length / sampleRate;
}

/** Joins frames (as captured) into one buffer. */
export function concatPcm(frames: readonly Float32Array[]): Float32Array {
  const total = frames.reduce((n, f) => n + f.length, 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const f of frames) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

/** Float [-1, 1] → int16 (rounded, clamped); the inverse of int16ToFloat for every int16 value. */
export function floatToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round((samples[i] as number) * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** int16 → float by /32768 (exact in float32, so int16 → float → int16 is lossless). */
export function int16ToFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] as number) / 32768;
  return out;
}

/** Averages interleaved channels into mono. */
export function downmix(interleaved: Float32Array, channels: number): Float32Array {
  if (channels === 1) return interleaved;
  const frames = Math.floor(interleaved.length / channels);
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += interleaved[i * channels + c] as number;
    out[i] = sum / channels;
  }
  return out;
}

/** Result of capping a recording at MAX_RECORDING_SECONDS. */
export interface Capped {
  readonly samples: Float32Array;
  /** Seconds that were cut off (0 when nothing was). */
  readonly droppedSeconds: number;
}

/** Keeps at most `maxSeconds` of audio (the start: that is what the user said first). */
export function capDuration(samples: Float32Array, maxSeconds = MAX_RECORDING_SECONDS, sampleRate = SAMPLE_RATE): Capped {
  const max = Math.floor(maxSeconds * sampleRate);
  if (samples.length <= max) return { samples, droppedSeconds: 0 };
  return { samples: samples.subarray(0, max), droppedSeconds: (samples.length - max) / sampleRate };
}
