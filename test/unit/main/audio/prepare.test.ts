import { describe, expect, it } from 'vitest';
import { isSilent, meterLevel, rmsInt16 } from '../../../../src/main/audio/levels.ts';
import { capDuration, concatPcm } from '../../../../src/main/audio/pcm.ts';
import { prepareForAsr } from '../../../../src/main/audio/prepare.ts';
import { splitAtSilences } from '../../../../src/main/audio/split.ts';
import { hasTool, readPcm, soxWav, speechWav } from '../../../helpers/audio-fixtures.ts';

const tools = hasTool('espeak-ng') && hasTool('sox');

describe('levels and preparation', () => {
  it.skipIf(!tools)('discards near-silence (sox noise at -80 dB) and keeps speech', () => {
    const hiss = readPcm(soxWav(['synth', '2', 'whitenoise', 'vol', '0.0001'])).samples;
    expect(rmsInt16(hiss)).toBeLessThan(20);
    expect(isSilent(hiss)).toBe(true);
    expect(prepareForAsr(hiss, 16000)).toMatchObject({ kind: 'silent', reason: 'below-threshold' });
    const speech = readPcm(speechWav('hello world this is a test'));
    const p = prepareForAsr(speech.samples, speech.sampleRate);
    expect(p.kind).toBe('speech');
    expect(p.rms).toBeGreaterThan(20);
  });

  it('honours the configured threshold and reports empty audio', () => {
    const quiet = new Float32Array(16000).fill(30 / 32768);
    expect(prepareForAsr(quiet, 16000, { silenceRms: 20 }).kind).toBe('speech');
    expect(prepareForAsr(quiet, 16000, { silenceRms: 40 }).kind).toBe('silent');
    expect(prepareForAsr(new Float32Array(0), 48000)).toMatchObject({ kind: 'silent', reason: 'empty' });
  });

  it('caps recordings at the maximum length and says how much was cut', () => {
    const long = new Float32Array(16000 * 125).fill(0.1);
    const capped = capDuration(long, 120);
    expect(capped.samples.length).toBe(16000 * 120);
    expect(capped.droppedSeconds).toBeCloseTo(5);
    const p = prepareForAsr(long, 16000);
    expect(p).toMatchObject({ kind: 'speech', droppedSeconds: 5 });
  });

  it('resamples capture-rate audio to 16 kHz', () => {
    const at48 = new Float32Array(48000).map((_, i) => 0.3 * Math.sin(i / 20));
    const p = prepareForAsr(at48, 48000);
    expect(p.kind === 'speech' && p.samples.length).toBe(16000);
  });

  it('meter maps -60..0 dBFS to 0..1', () => {
    expect(meterLevel(new Float32Array(100))).toBe(0);
    expect(meterLevel(new Float32Array(100).fill(1))).toBeCloseTo(1);
    expect(meterLevel(new Float32Array(100).fill(0.001))).toBeCloseTo(0);
    expect(concatPcm([new Float32Array([1]), new Float32Array([2, 3])])).toEqual(new Float32Array([1, 2, 3]));
  });

  it('splits long audio at the quiet moment nearest the limit', () => {
    const s = new Float32Array(16000 * 10).fill(0.5);
    s.fill(0, 16000 * 7, 16000 * 7 + 3200); // a 200 ms pause at 7 s
    const pieces = splitAtSilences(s, 16000 * 8);
    expect(pieces).toHaveLength(2);
    const cut = (pieces[0] as { end: number }).end;
    expect(cut).toBeGreaterThanOrEqual(16000 * 7);
    expect(cut).toBeLessThanOrEqual(16000 * 7 + 3200);
    expect(pieces[1]).toEqual({ start: cut, end: s.length });
    expect(splitAtSilences(s, s.length)).toEqual([{ start: 0, end: s.length }]);
  });
});
