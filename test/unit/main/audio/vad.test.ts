import { describe, expect, it } from 'vitest';
import { detectSpeech, trimSilence } from '../../../../src/main/audio/vad.ts';
import { prepareForAsr } from '../../../../src/main/audio/prepare.ts';
import { energyBounds, hasTool, paddedSpeechWav, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';

const tools = hasTool('espeak-ng') && hasTool('sox');
const ms = (samples: number): number => samples / 16;

describe.skipIf(!tools)('Silero VAD (sherpa-onnx-node running the model from @ricky0123/vad-web)', () => {
  it('trims a padded espeak clip to within 100 ms of the speech boundaries', () => {
    const clean = readPcm(speechWav('hello world this is a test')).samples;
    const truth = energyBounds(clean);
    const before = 1.5 * 16000;
    const { samples } = readPcm(paddedSpeechWav('hello world this is a test', 1.5, 2.0));
    const spans = detectSpeech(samples);
    expect(spans.length).toBeGreaterThanOrEqual(1);
    const first = spans[0] as { start: number };
    const last = spans[spans.length - 1] as { end: number };
    expect(Math.abs(ms(first.start - (before + truth.start)))).toBeLessThanOrEqual(100);
    expect(Math.abs(ms(last.end - (before + truth.end)))).toBeLessThanOrEqual(100);
    const trim = trimSilence(samples);
    expect(Math.abs(ms(trim.keptStart - (before + truth.start)))).toBeLessThanOrEqual(100);
    expect(Math.abs(ms(trim.keptEnd - (before + truth.end)))).toBeLessThanOrEqual(100);
    expect(trim.samples.length).toBe(trim.keptEnd - trim.keptStart);
  });

  it('finds no speech in a quiet tone-free recording, so preparation discards it', () => {
    const hum = new Float32Array(16000 * 2).map((_, i) => 0.01 * Math.sin(i / 3)); // loud enough for the RMS gate
    expect(detectSpeech(hum)).toEqual([]);
    expect(prepareForAsr(hum, 16000, { vad: true })).toMatchObject({ kind: 'silent', reason: 'no-speech-detected' });
  });

  it('prepareForAsr with vad on returns the trimmed speech', () => {
    const { samples } = readPcm(paddedSpeechWav('hello world this is a test', 1.5, 2.0));
    const p = prepareForAsr(samples, 16000, { vad: true });
    expect(p.kind).toBe('speech');
    if (p.kind === 'speech') expect(p.trimmedSeconds).toBeGreaterThan(3);
  });
});
