import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnnxInfo } from '../../../../src/main/asr/onnx-info.ts';
import { SherpaOfflineEngine } from '../../../../src/main/asr/sherpa-engine.ts';
import { AsrError } from '../../../../src/main/asr/types.ts';
import { hasTool, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { ensureRandomParaformerModel, PARAFORMER_VOCAB, writeParaformerModel, type ParaformerFiles } from '../../../helpers/paraformer-model.ts';
import { ensureRandomSenseVoiceModel } from '../../../helpers/sense-voice-model.ts';

/*
 * The real sherpa-onnx Paraformer path (fbank → LFR → CMVN → onnxruntime → Paraformer greedy search) on a
 * random-weight model the test writes (test/helpers/paraformer-model.ts). Structure only, never words.
 */
let model: ParaformerFiles;
let dir: string;
let speech: Float32Array;

beforeAll(() => {
  model = ensureRandomParaformerModel();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-paraformer-'));
  speech = hasTool('espeak-ng') && hasTool('sox')
    ? readPcm(speechWav('hello world this is a test of the sherpa engine')).samples
    : new Float32Array(48000).map((_, i) => 0.2 * Math.sin(i / 7) * Math.sin(i / 900)); // fallback: modulated tone
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function paraformer(modelPath: string, tokensPath?: string): SherpaOfflineEngine {
  return new SherpaOfflineEngine({ family: 'paraformer', modelPath, tokensPath, threads: 1 });
}

async function failure(modelPath: string, tokensPath?: string): Promise<AsrError> {
  const engine = paraformer(modelPath, tokensPath);
  const err = await engine.transcribe(speech).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AsrError);
  expect(engine.status().loaded).toBe(false);
  return err as AsrError;
}

describe('SherpaOfflineEngine (Paraformer) on random weights', () => {
  it('the generated model declares what sherpa-onnx reads', () => {
    const info = readOnnxInfo(model.model);
    expect(info.inputs).toEqual(['speech', 'speech_lengths']);
    expect(info.outputs).toEqual(['logits', 'token_num']);
    expect(info.metadata.get('vocab_size')).toBe(String(PARAFORMER_VOCAB.length));
  });

  it('decodes speech warm, one load for every language asked', async () => {
    const engine = paraformer(model.model);
    try {
      const runs = [];
      for (const language of ['zh', 'en', 'auto', 'zh']) runs.push(await engine.transcribe(speech, { language }));
      expect(engine.status()).toMatchObject({ loaded: true, loads: 1, variant: '' });
      expect(runs[0]?.timings.loadMs).toBeGreaterThan(0);
      for (const r of runs.slice(1)) expect(r.timings.loadMs).toBe(0);
      expect(runs.map((r) => r.language)).toEqual(['zh', 'en', undefined, 'zh']); // Paraformer detects nothing
      const first = runs[0];
      expect(first?.text.length).toBeGreaterThan(0);
      expect(first?.text).toBe(first?.text.trim());
      expect(first?.text).not.toMatch(/@@|<\/?s>|<blank>/);
      for (const r of runs) expect(r.text).toBe(first?.text);
      // No us_cif_peak output in this model (nor in the non-timestamp releases): one segment, the clip.
      expect(first?.segments).toEqual([{ startMs: 0, endMs: (speech.length / 16000) * 1000, text: first?.text }]);
    } finally {
      await engine.dispose();
    }
  });

  it('short clips decode without a crash', async () => {
    const engine = paraformer(model.model);
    try {
      for (const n of [0, 10, 1200]) expect(typeof (await engine.transcribe(speech.slice(0, n))).text).toBe('string');
    } finally {
      await engine.dispose();
    }
  });
});

describe('SherpaOfflineEngine (Paraformer) with a bad model: a named error, no crash', () => {
  it('a missing file is model-missing, a corrupt one model-invalid', async () => {
    expect((await failure(path.join(dir, 'none.onnx'), model.tokens)).code).toBe('model-missing');
    const garbage = path.join(dir, 'garbage.onnx');
    fs.writeFileSync(garbage, Buffer.alloc(5000, 0xff));
    expect((await failure(garbage, model.tokens)).code).toBe('model-invalid');
  });

  it('missing metadata is model-invalid (sherpa-onnx would exit the process)', async () => {
    const files = writeParaformerModel(path.join(dir, 'no-meta'), { omitMetadata: ['lfr_window_shift'] });
    const err = await failure(files.model, files.tokens);
    expect(err.code).toBe('model-invalid');
    expect(err.message).toContain('lfr_window_shift');
  });

  it('a SenseVoice model, or tokens without </s>, is model-invalid', async () => {
    const sv = ensureRandomSenseVoiceModel();
    const e1 = await failure(sv.model, sv.tokens);
    expect(e1.code).toBe('model-invalid');
    expect(e1.message).toContain('no input speech');

    const tokens = path.join(dir, 'tokens.txt');
    fs.writeFileSync(tokens, PARAFORMER_VOCAB.map((t, i) => `${t === '</s>' ? '<eos>' : t} ${i}\n`).join(''));
    const e2 = await failure(model.model, tokens);
    expect(e2.code).toBe('model-invalid');
    expect(e2.message).toContain('</s>');
  });
});

/* Opt-in with real weights: TINGXIE_SHERPA_MODELS holding a sherpa-onnx-paraformer-* release folder. */
function realParaformer(): string | undefined {
  const root = process.env.TINGXIE_SHERPA_MODELS;
  if (root === undefined || root === '' || !fs.existsSync(root)) return undefined;
  for (const d of fs.readdirSync(root).filter((n) => /paraformer/i.test(n) && !/streaming/i.test(n))) {
    const hit = ['model.int8.onnx', 'model.onnx'].map((f) => path.join(root, d, f)).find((f) => fs.existsSync(f));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

describe('Paraformer with real weights (opt-in)', () => {
  it('espeak-ng Chinese comes back as Chinese characters', async (ctx) => {
    const real = realParaformer();
    if (real === undefined) ctx.skip('set TINGXIE_SHERPA_MODELS to a folder with a sherpa-onnx Paraformer model to run this');
    if (!hasTool('espeak-ng') || !hasTool('sox')) ctx.skip('espeak-ng and sox are needed to synthesise the clip');
    const engine = new SherpaOfflineEngine({ family: 'paraformer', modelPath: real as string });
    try {
      const r = await engine.transcribe(readPcm(speechWav('今天天气很好', { voice: 'cmn' })).samples, { language: 'zh' });
      expect(r.text).toMatch(/[\u4e00-\u9fff]/);
    } finally {
      await engine.dispose();
    }
  }, 240_000);
});
