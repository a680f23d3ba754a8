/*
 * Levels: the RMS silence check (on the int16 scale, as the config's audio.silence_rms is written), the
 * meter shown while recording, and peak/dBFS for diagnostics.
 */

/** Root mean square on the float scale [0, 1]. */
export function rms(samples: ArrayLike<number>, start = 0, end = samples.length): number {
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i++) {
    const v = samples[i] as number;
    sum += v * v;
  }
  return Math.sqrt(sum / (end - start));
}

/** RMS on the int16 scale [0, 32768] (the unit of audio.silence_rms; WenZi's threshold is 20). */
export function rmsInt16(samples: ArrayLike<number>): number {
  return rms(samples) * 32768;
}

/** Largest absolute sample value. */
export function peak(samples: ArrayLike<number>): number {
  let p = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = Math.abs(samples[i] as number);
    if (v > p) p = v;
  }
  return p;
}

/** Decibels relative to full scale; -Infinity for digital silence. */
export function dbfs(value: number): number {
  return value <= 0 ? -Infinity : 20 * Math.log10(value);
}

/** True when the recording is too quiet to hold speech (RMS below `thresholdInt16` on the int16 scale). */
export function isSilent(samples: ArrayLike<number>, thresholdInt16 = 20): boolean {
  return rmsInt16(samples) < thresholdInt16;
}

/**
 * Meter value 0..1 for a frame: dBFS mapped linearly from -60 dB (0) to 0 dB (1), which tracks perceived
 * loudness better than raw RMS.
 */
export function meterLevel(frame: ArrayLike<number>): number {
  const db = dbfs(rms(frame));
  if (!Number.isFinite(db)) return 0;
  return Math.min(1, Math.max(0, (db + 60) / 60));
}
