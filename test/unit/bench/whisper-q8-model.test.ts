import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LocalWhisperEngine } from '../../../src/main/asr/local-engine.ts';
import { validateModelFile } from '../../../src/main/asr/model-file.ts';
import { isEngineBuilt } from '../../../src/main/asr/whisper-addon.ts';
import { hasTool, readPcm, speechWav } from '../../helpers/audio-fixtures.ts';
import { ensureRandomWhisperModel } from '../../helpers/whisper-model.ts';

/*
 * The Q8_0 option of the random whisper writer (test/helpers/whisper-model.ts), which B13 uses for its
 * 8-bit pair (whisper small-q8_0): the file passes the app's model check with whisper.cpp's quantized
 * ftype, is about the size of an f16 file × 34/64, and whisper.cpp loads and decodes it.
 */

describe('random whisper model, Q8_0', () => {
  it('is a quantized ggml file the app accepts', () => {
    const f16 = ensureRandomWhisperModel();
    const q8 = ensureRandomWhisperModel({ quant: 'q8_0' });
    expect(q8).not.toBe(f16);
    const info = validateModelFile(q8);
    expect(info.hparams.ftype).toBe(2007); // GGML_FTYPE_MOSTLY_Q8_0 with quantization version 2
    expect(validateModelFile(f16).hparams.ftype).toBe(1);
    expect(fs.statSync(q8).size).toBeLessThan(fs.statSync(f16).size);
  });

  it.skipIf(!isEngineBuilt())('loads in whisper.cpp and decodes its script', { timeout: 60_000 }, async () => {
    const pcm = hasTool('espeak-ng') && hasTool('sox') ? readPcm(speechWav('hello world this is a test')).samples : new Float32Array(48000);
    const engine = new LocalWhisperEngine({ modelPath: ensureRandomWhisperModel({ quant: 'q8_0' }), threads: 1, idleUnloadMs: 0 });
    try {
      const r = await engine.transcribe(pcm, { language: 'en' });
      expect(r.text).toMatch(/hello world/);
      expect(engine.status().loads).toBe(1);
    } finally {
      await engine.dispose();
    }
  });
});
