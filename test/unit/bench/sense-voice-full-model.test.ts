import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readOnnxInfo } from '../../../src/main/asr/onnx-info.ts';
import { SherpaOfflineEngine } from '../../../src/main/asr/sherpa-engine.ts';
import { hasTool, readPcm, speechWav } from '../../helpers/audio-fixtures.ts';
import { SENSE_VOICE_VOCAB } from '../../helpers/sense-voice-model.ts';
import { senseVoiceFullParamCount, senseVoiceFullVocab, SV_VOCAB, writeSenseVoiceFullModel } from '../../helpers/sense-voice-full-model.ts';

/*
 * The real-architecture SenseVoice-Small graph B13 measures (test/helpers/sense-voice-full-model.ts), cut to
 * 2 + 1 blocks so it is quick: it has the I/O and metadata sherpa-onnx reads, loads in sherpa-onnx's
 * onnxruntime as float32 and as QUInt8, and decodes to text over the real 25055-token vocabulary.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-sv-full-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const speech = (): Float32Array =>
  hasTool('espeak-ng') && hasTool('sox')
    ? readPcm(speechWav('hello world this is a test')).samples
    : new Float32Array(48000).map((_, i) => 0.2 * Math.sin(i / 7) * Math.sin(i / 900));

describe('real-architecture SenseVoice-Small graph', () => {
  it('has SenseVoice-Small\'s 234 M parameters and its vocabulary size', () => {
    expect(Math.round(senseVoiceFullParamCount() / 1e5) / 10).toBe(234.0);
    const vocab = senseVoiceFullVocab();
    expect(vocab).toHaveLength(SV_VOCAB);
    expect(vocab.slice(0, SENSE_VOICE_VOCAB.length)).toEqual(SENSE_VOICE_VOCAB); // the stand-in's specials, same ids
    expect(vocab.every((t) => !/\s/.test(t))).toBe(true);
  });

  for (const quantized of [false, true]) {
    it(`${quantized ? 'QUInt8' : 'float32'}: loads and decodes in sherpa-onnx`, { timeout: 60_000 }, async () => {
      const m = writeSenseVoiceFullModel(path.join(dir, quantized ? 'int8' : 'fp32'), { quantized, blocks: 2, tpBlocks: 1 });
      expect(path.basename(m.model)).toBe(quantized ? 'model.int8.onnx' : 'model.onnx');
      const info = readOnnxInfo(m.model);
      expect(info.inputs).toEqual(['x', 'x_length', 'language', 'text_norm']);
      expect(info.outputs).toEqual(['logits']);
      expect(info.metadata.get('vocab_size')).toBe(String(SV_VOCAB));
      expect(info.metadata.get('comment')).not.toMatch(/Nano/);
      const engine = new SherpaOfflineEngine({ family: 'sense-voice', modelPath: m.model, threads: 1 });
      try {
        const r = await engine.transcribe(speech(), { language: 'en' });
        expect(r.text.length).toBeGreaterThan(0);
        expect(engine.status().loads).toBe(1);
      } finally {
        await engine.dispose();
      }
    });
  }
});
