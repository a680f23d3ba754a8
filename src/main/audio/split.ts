import { rms } from './levels.ts';

/*
 * Splits long audio into pieces no longer than a limit, cutting at the quietest moment near each limit,
 * so a provider's upload cap never cuts a word in half when a pause is nearby.
 */

/** A piece [start, end) in samples. */
export interface Piece {
  readonly start: number;
  readonly end: number;
}

/**
 * Pieces of at most `maxSamples`, each cut at the quietest `frame`-sample window found in the last
 * `searchFraction` of the allowed length (default: the last 40%).
 */
export function splitAtSilences(samples: Float32Array, maxSamples: number, opts: { frame?: number; searchFraction?: number } = {}): Piece[] {
  if (maxSamples <= 0) throw new RangeError('maxSamples must be positive');
  const frame = Math.max(1, Math.min(opts.frame ?? 1600, Math.floor(maxSamples / 4))); // 100 ms at 16 kHz
  const search = opts.searchFraction ?? 0.4;
  const pieces: Piece[] = [];
  let start = 0;
  while (samples.length - start > maxSamples) {
    const hardEnd = start + maxSamples;
    const from = Math.max(start + frame, Math.floor(hardEnd - maxSamples * search));
    let bestAt = hardEnd;
    let best = Infinity;
    for (let at = from; at + frame <= hardEnd; at += Math.max(1, Math.floor(frame / 2))) {
      const level = rms(samples, at, at + frame);
      if (level < best) {
        best = level;
        bestAt = at + Math.floor(frame / 2);
      }
    }
    pieces.push({ start, end: bestAt });
    start = bestAt;
  }
  if (start < samples.length) pieces.push({ start, end: samples.length });
  return pieces;
}
