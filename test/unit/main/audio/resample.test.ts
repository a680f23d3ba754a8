import { describe, expect, it } from 'vitest';
import { resample } from '../../../../src/main/audio/resample.ts';
import { rms } from '../../../../src/main/audio/levels.ts';
import { hasTool, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';

const tools = hasTool('espeak-ng') && hasTool('sox');

function correlation(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return ab / Math.sqrt(aa * bb);
}

describe('resample', () => {
  it.skipIf(!tools)('16 kHz speech → 48 kHz → 16 kHz comes back (correlation > 0.999)', () => {
    const { samples } = readPcm(speechWav('hello world this is a test'));
    const up = resample(samples, 16000, 48000);
    expect(up.length).toBe(samples.length * 3);
    const back = resample(up, 48000, 16000);
    expect(back.length).toBe(samples.length);
    expect(correlation(samples, back)).toBeGreaterThan(0.999);
  });

  it.skipIf(!tools)('44.1 kHz capture → 16 kHz matches sox own conversion', () => {
    const at441 = readPcm(speechWav('hello world this is a test', { rate: 44100 }));
    const sox16 = readPcm(speechWav('hello world this is a test'));
    const ours = resample(at441.samples, 44100, 16000);
    expect(Math.abs(ours.length - sox16.samples.length)).toBeLessThanOrEqual(2);
    expect(correlation(ours, sox16.samples)).toBeGreaterThan(0.99);
  });

  it('removes content above the new Nyquist instead of aliasing it', () => {
    const n = 48000;
    const tone = new Float32Array(n).map((_, i) => Math.sin((2 * Math.PI * 12000 * i) / 48000)); // 12 kHz: above 8 kHz
    const down = resample(tone, 48000, 16000);
    expect(rms(down, 200, down.length - 200)).toBeLessThan(0.01);
    const low = new Float32Array(n).map((_, i) => Math.sin((2 * Math.PI * 1000 * i) / 48000));
    expect(rms(resample(low, 48000, 16000), 200, 15800)).toBeCloseTo(Math.SQRT1_2, 2);
  });

  it('returns the input for equal rates and rejects bad rates', () => {
    const s = new Float32Array([1, 2, 3]);
    expect(resample(s, 16000, 16000)).toBe(s);
    expect(() => resample(s, 0, 16000)).toThrow(RangeError);
  });
});
