import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GGML_MAGIC, ModelFileError, validateModelFile } from '../../../../src/main/asr/model-file.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

let dir: string;
let good: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  good = ensureRandomWhisperModel();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('model file validation', () => {
  it('accepts the generated model and reads its hyper-parameters', () => {
    const info = validateModelFile(good);
    expect(info.hparams).toMatchObject({ nVocab: 51865, nAudioState: 64, nAudioLayer: 1, nTextLayer: 1, nMels: 80, ftype: 1 });
    expect(info.tensors).toBe(11 + 15 + 24);
    expect(info.multilingual).toBe(true);
    expect(fs.readFileSync(good).subarray(0, 4).toString('latin1')).toBe('lmgg');
    expect(fs.readFileSync(good).readUInt32LE(0)).toBe(GGML_MAGIC);
  });

  it('rejects a truncated download, naming the problem', () => {
    const cut = path.join(dir, 'cut.bin');
    fs.writeFileSync(cut, fs.readFileSync(good).subarray(0, 6_000_000));
    expect(() => validateModelFile(cut)).toThrow(ModelFileError);
    expect(() => validateModelFile(cut)).toThrow(/truncated/);
  });

  it('rejects foreign files and missing paths', () => {
    const junk = path.join(dir, 'junk.bin');
    fs.writeFileSync(junk, Buffer.alloc(4096, 7));
    expect(() => validateModelFile(junk)).toThrow(/does not start with 'lmgg'/);
    const gguf = path.join(dir, 'x.gguf');
    fs.writeFileSync(gguf, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(4096)]));
    expect(() => validateModelFile(gguf)).toThrow(/GGUF/);
    try {
      validateModelFile(path.join(dir, 'nope.bin'));
      expect.unreachable();
    } catch (err) {
      expect((err as ModelFileError).reason).toBe('missing');
    }
    const tiny = path.join(dir, 'tiny.bin');
    fs.writeFileSync(tiny, 'lmgg');
    expect(() => validateModelFile(tiny)).toThrow(/only 4 bytes/);
  });

  it('rejects a model with extra bytes that do not form tensors', () => {
    const extra = path.join(dir, 'extra.bin');
    fs.writeFileSync(extra, Buffer.concat([fs.readFileSync(good), Buffer.alloc(64, 0xff)]));
    expect(() => validateModelFile(extra)).toThrow(ModelFileError);
  });
});
