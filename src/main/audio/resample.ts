/*
 * Band-limited resampling (windowed sinc). Capture devices run at 44.1/48 kHz; whisper wants 16 kHz.
 * Downsampling lowers the filter cutoff to the new Nyquist so nothing aliases into the speech band.
 */

/** Zero crossings of the sinc on each side: 16 gives > 60 dB stop-band with the Blackman window. */
const HALF_TAPS = 16;

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

function blackman(t: number): number {
  // t in [-1, 1]
  return 0.42 + 0.5 * Math.cos(Math.PI * t) + 0.08 * Math.cos(2 * Math.PI * t);
}

/** Resamples mono PCM from `fromRate` to `toRate` (any ratio). Returns the input itself when the rates match. */
export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (!(fromRate > 0) || !(toRate > 0)) throw new RangeError(`bad sample rates ${fromRate} → ${toRate}`);
  if (fromRate === toRate || input.length === 0) return input;
  const ratio = toRate / fromRate;
  const outLength = Math.round(input.length * ratio);
  const out = new Float32Array(outLength);
  // Cutoff relative to the input rate: the lower of the two Nyquists (slightly under, for the transition band).
  const cutoff = Math.min(1, ratio) * 0.97;
  const width = HALF_TAPS / cutoff; // half-width of the kernel, in input samples
  const n = input.length;
  for (let j = 0; j < outLength; j++) {
    const center = j / ratio;
    const lo = Math.max(0, Math.ceil(center - width));
    const hi = Math.min(n - 1, Math.floor(center + width));
    let acc = 0;
    let norm = 0;
    for (let i = lo; i <= hi; i++) {
      const d = i - center;
      const w = cutoff * sinc(cutoff * d) * blackman(d / width);
      acc += (input[i] as number) * w;
      norm += w;
    }
    // Normalising by the kernel sum keeps DC gain exactly 1, also at the edges where the kernel is cut.
    out[j] = norm === 0 ? 0 : acc / norm;
  }
  return out;
}
