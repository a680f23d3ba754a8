import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnnxInfo } from '../../../../src/main/asr/onnx-info.ts';
import { defaultVadModelPath } from '../../../../src/main/audio/vad.ts';
import { SherpaOfflineEngine, type SherpaOfflineOptions } from '../../../../src/main/asr/sherpa-engine.ts';
import { cleanSenseVoiceText, languageFromTag, senseVoiceLanguage } from '../../../../src/main/asr/sherpa-families.ts';
import { AsrError } from '../../../../src/main/asr/types.ts';
import { hasTool, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { encodeOnnxModel } from '../../../helpers/onnx-writer.ts';
import { ensureRandomSenseVoiceModel, SENSE_VOICE_VOCAB, senseVoiceSpec, writeSenseVoiceModel, type SenseVoiceFiles } from '../../../helpers/sense-voice-model.ts';

/*
 * The real sherpa-onnx (sherpa-onnx-node's bundled onnxruntime) on a random-weight SenseVoice model the
 * test writes (test/helpers/sense-voice-model.ts): the whole load → fbank → LFR/CMVN → encoder → CTC
 * decode path runs, but nothing is recognised, so these tests assert structure, never words. Broken
 * models run in this very process: a crash in native code would fail the whole file, not one test.
 */
let model: SenseVoiceFiles;
let dir: string;
let speech: Float32Array;

beforeAll(() => {
  model = ensureRandomSenseVoiceModel();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-sherpa-'));
  speech = hasTool('espeak-ng') && hasTool('sox')
    ? readPcm(speechWav('hello world this is a test of the sherpa engine')).samples
    : new Float32Array(48000).map((_, i) => 0.2 * Math.sin(i / 7) * Math.sin(i / 900)); // fallback: modulated tone
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function senseVoice(opts: Omit<SherpaOfflineOptions, 'family'>): SherpaOfflineEngine {
  return new SherpaOfflineEngine({ family: 'sense-voice', threads: 1, ...opts });
}

async function rejection(p: Promise<unknown>): Promise<AsrError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AsrError);
  return err as AsrError;
}

describe('the generated SenseVoice model', () => {
  it('declares the inputs, output and metadata sherpa-onnx reads', () => {
    const info = readOnnxInfo(model.model);
    expect(info.inputs).toEqual(['x', 'x_length', 'language', 'text_norm']);
    expect(info.outputs).toEqual(['logits']);
    expect(info.metadata.get('lfr_window_size')).toBe('7');
    expect(info.metadata.get('vocab_size')).toBe(String(SENSE_VOICE_VOCAB.length));
    expect(info.metadata.get('neg_mean')?.split(',')).toHaveLength(560);
    expect(info.inputShapes.get('x')).toEqual(['N', 'T', 560]);
    expect(info.inputShapes.get('language')).toEqual(['N']);
  });

  it('the scanner reads a real torch-exported model too (the Silero VAD the app ships)', () => {
    const info = readOnnxInfo(defaultVadModelPath());
    expect(info.inputs).toEqual(['input', 'state', 'sr']);
    expect(info.outputs).toEqual(['output', 'stateN']);
  });
});

describe('SherpaOfflineEngine (SenseVoice) on random weights', () => {
  it('decodes speech warm: a string, one timed segment, timings, the model loaded once', async () => {
    const engine = senseVoice({ modelPath: model.model });
    try {
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await engine.transcribe(speech, { language: 'en' }));
      const [first, ...rest] = results;
      expect(engine.status()).toMatchObject({ loaded: true, loads: 1, variant: 'en' });
      expect(first?.timings.loadMs).toBeGreaterThan(0);
      for (const r of rest) expect(r.timings.loadMs).toBe(0);
      for (const r of results) {
        expect(typeof r.text).toBe('string');
        expect(r.text).not.toMatch(/<\|/); // the language/emotion/event/ITN tokens never reach the text
        expect(r.engine).toBe('local');
        expect(r.language).toBe('en');
        expect(r.timings.transcribeMs).toBeGreaterThanOrEqual(0);
        expect(r.timings.totalMs).toBeGreaterThanOrEqual(r.timings.transcribeMs);
        // Same audio, same weights: the same text each time (no state leaks between streams).
        expect(r.text).toBe(first?.text);
      }
      // Random weights still emit tokens on speech (the blank-leaning head is not all blank).
      expect(first?.text.length).toBeGreaterThan(0);
      const seg = first?.segments[0];
      expect(first?.segments).toHaveLength(1);
      expect(seg?.text).toBe(first?.text);
      expect(seg?.startMs).toBeGreaterThanOrEqual(0);
      expect(seg?.endMs).toBeGreaterThan(seg?.startMs ?? 0);
      expect(seg?.endMs).toBeLessThanOrEqual((speech.length / 16) + 1);
    } finally {
      await engine.dispose();
    }
  });

  it('passes the language to the model (the model echoes it as its language token)', async () => {
    const engine = senseVoice({ modelPath: model.model });
    try {
      for (const language of ['ja', 'ko', 'yue', 'zh', 'en']) {
        const r = await engine.transcribe(speech, { language });
        expect(r.language, language).toBe(language);
      }
      // auto: the generated model "detects" Chinese; a region suffix and the zh-en mix are understood too.
      expect((await engine.transcribe(speech, { language: 'auto' })).language).toBe('zh');
      expect((await engine.transcribe(speech, { language: 'ja-JP' })).language).toBe('ja');
      // One reload per language switch, none when it stays.
      await engine.transcribe(speech, { language: 'ja' });
      expect(engine.status().loads).toBe(7);
    } finally {
      await engine.dispose();
    }
  });

  it('passes the ITN switch to the model (on by default)', async () => {
    const on = senseVoice({ modelPath: model.model });
    const off = senseVoice({ modelPath: model.model, itn: false });
    try {
      expect((await on.transcribe(speech, { language: 'en' })).text).not.toBe('test');
      expect((await off.transcribe(speech, { language: 'en' })).text).toBe('test'); // the model's "no ITN" signature
    } finally {
      await on.dispose();
      await off.dispose();
    }
  });

  it('handles empty and very short clips without calling into a negative frame count', async () => {
    const engine = senseVoice({ modelPath: model.model });
    try {
      for (const n of [0, 1, 400, 1600]) {
        const r = await engine.transcribe(speech.slice(0, n), { language: 'en' });
        expect(typeof r.text).toBe('string');
        for (const s of r.segments) expect(s.endMs).toBeLessThanOrEqual(Math.max(1, n / 16));
      }
    } finally {
      await engine.dispose();
    }
  });

  it('reports a cancelled call', async () => {
    const engine = senseVoice({ modelPath: model.model });
    const ac = new AbortController();
    ac.abort();
    expect((await rejection(engine.transcribe(speech, { signal: ac.signal }))).code).toBe('cancelled');
    await engine.dispose();
  });

  it('warms up ahead of the first call and reloads after dispose', async () => {
    const engine = senseVoice({ modelPath: model.model });
    await engine.warmUp();
    expect(engine.status()).toMatchObject({ loaded: true, loads: 1, variant: 'auto' });
    expect((await engine.transcribe(speech)).timings.loadMs).toBe(0);
    await engine.dispose();
    expect(engine.status().loaded).toBe(false);
    expect((await engine.transcribe(speech)).timings.loadMs).toBeGreaterThan(0);
    await engine.dispose();
  });

  it('warms up for the language the calls will ask for, so the first call does not rebuild the recognizer', async () => {
    const engine = senseVoice({ modelPath: model.model });
    await engine.warmUp({ language: 'zh' });
    expect(engine.status()).toMatchObject({ loaded: true, loads: 1, variant: 'zh' });
    expect((await engine.transcribe(speech, { language: 'zh' })).timings.loadMs).toBe(0);
    expect(engine.status().loads).toBe(1);
    await engine.dispose();
  });
});

describe('SherpaOfflineEngine (SenseVoice) with a bad model: a named error, no crash', () => {
  async function failure(files: { model: string; tokens?: string }): Promise<AsrError> {
    const engine = senseVoice({ modelPath: files.model, tokensPath: files.tokens });
    const err = await rejection(engine.transcribe(speech));
    expect(engine.status().loaded).toBe(false);
    return err;
  }

  it('a missing model or tokens file is model-missing', async () => {
    expect((await failure({ model: path.join(dir, 'nope.onnx') })).code).toBe('model-missing');
    expect((await failure({ model: model.model, tokens: path.join(dir, 'nope.txt') })).code).toBe('model-missing');
  });

  it('a corrupt or truncated file is model-invalid', async () => {
    const garbage = path.join(dir, 'garbage', 'model.onnx');
    fs.mkdirSync(path.dirname(garbage), { recursive: true });
    fs.writeFileSync(garbage, Buffer.from('this is not an onnx model '.repeat(200)));
    fs.copyFileSync(model.tokens, path.join(dir, 'garbage', 'tokens.txt'));
    const e1 = await failure({ model: garbage });
    expect(e1.code).toBe('model-invalid');
    expect(e1.message).toContain('not a valid ONNX model');

    const cut = path.join(dir, 'garbage', 'cut.onnx');
    const bytes = fs.readFileSync(model.model);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect((await failure({ model: cut, tokens: model.tokens })).code).toBe('model-invalid');
  });

  it('a model without the SenseVoice metadata is model-invalid (sherpa-onnx would exit the process)', async () => {
    const files = writeSenseVoiceModel(path.join(dir, 'no-meta'), { omitMetadata: ['with_itn', 'neg_mean'] });
    const err = await failure(files);
    expect(err.code).toBe('model-invalid');
    expect(err.message).toMatch(/with_itn, neg_mean/);
  });

  it('a model of another family, or tokens of another model, is model-invalid', async () => {
    // Paraformer's inputs are speech/speech_lengths (scripts/paraformer export): not a SenseVoice model.
    const spec = senseVoiceSpec();
    const other = path.join(dir, 'other', 'model.onnx');
    fs.mkdirSync(path.dirname(other), { recursive: true });
    const renamed = { ...spec, inputs: spec.inputs.map((i) => (i.name === 'x' ? { ...i, name: 'speech' } : i)) };
    fs.writeFileSync(other, encodeOnnxModel(renamed));
    const e1 = await failure({ model: other, tokens: model.tokens });
    expect(e1.code).toBe('model-invalid');
    expect(e1.message).toContain('no input x');

    // Right names and metadata, but a graph onnxruntime rejects (a 400-dim projection for 560-dim features):
    // sherpa-onnx-node's async load turns the Ort::Exception into a rejection.
    const narrow = path.join(dir, 'other', 'narrow.onnx');
    fs.writeFileSync(narrow, encodeOnnxModel(narrowSpec(spec)));
    const e3 = await failure({ model: narrow, tokens: model.tokens });
    expect(e3.code).toBe('model-invalid');
    expect(e3.message).toContain('could not load');

    // A graph declaring 400 features per frame beside metadata that gives 7 × 80 = 560: onnxruntime would
    // refuse every call, which sherpa-onnx turns into empty text; the check names the mismatch instead.
    const declared = path.join(dir, 'other', 'declared.onnx');
    fs.writeFileSync(declared, encodeOnnxModel({ ...narrowSpec(spec), inputs: spec.inputs.map((i) => (i.name === 'x' ? { ...i, dims: ['N', 'T', 400] } : i)) }));
    const e4 = await failure({ model: declared, tokens: model.tokens });
    expect(e4.code).toBe('model-invalid');
    expect(e4.message).toMatch(/input x takes 400 features per frame but its metadata \(lfr_window_size\) gives 560/);

    const tokens = path.join(dir, 'other', 'tokens.txt');
    fs.writeFileSync(tokens, '<unk> 0\na 1\nb 2\n');
    const e2 = await failure({ model: model.model, tokens });
    expect(e2.code).toBe('model-invalid');
    expect(e2.message).toContain('different models');
  });
});

/** `spec` with a projection for 400-dim features (the input still declares 560). */
function narrowSpec(spec: ReturnType<typeof senseVoiceSpec>): ReturnType<typeof senseVoiceSpec> {
  const initializers = spec.initializers.map((t) => (t.name === 'proj.weight' ? { ...t, dims: [400, SENSE_VOICE_VOCAB.length], data: (t.data as Float32Array).slice(0, 400 * SENSE_VOICE_VOCAB.length) } : t));
  return { ...spec, initializers };
}

describe('pure helpers', () => {
  it('maps requested languages to SenseVoice ones', () => {
    expect(['auto', 'zh', 'zh-CN', 'en-US', 'yue', 'de', 'zh-en', undefined].map(senseVoiceLanguage)).toEqual(['auto', 'zh', 'zh', 'en', 'yue', 'auto', 'zh', 'auto']);
    expect(languageFromTag('<|ko|>')).toBe('ko');
    expect(languageFromTag('<|nospeech|>')).toBeUndefined();
    expect(cleanSenseVoiceText(' <|en|>hello  world<|Speech|> ')).toBe('hello world');
  });
});

/*
 * Opt-in: real weights cannot be downloaded on the test machines. Where they exist, point
 * TINGXIE_SHERPA_MODELS at a folder holding sherpa-onnx's SenseVoice release folder
 * (sherpa-onnx-sense-voice-zh-en-ja-ko-yue-*, with model.int8.onnx or model.onnx and tokens.txt).
 */
function realSenseVoice(): string | undefined {
  const root = process.env.TINGXIE_SHERPA_MODELS;
  if (root === undefined || root === '' || !fs.existsSync(root)) return undefined;
  for (const d of fs.readdirSync(root).filter((n) => /sense-voice/i.test(n))) {
    const hit = ['model.int8.onnx', 'model.onnx'].map((f) => path.join(root, d, f)).find((f) => fs.existsSync(f));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

describe('SenseVoice with real weights (opt-in)', () => {
  it('espeak-ng "hello world" comes back as words', async (ctx) => {
    const real = realSenseVoice();
    if (real === undefined) ctx.skip('set TINGXIE_SHERPA_MODELS to a folder with a sherpa-onnx SenseVoice model to run this');
    if (!hasTool('espeak-ng') || !hasTool('sox')) ctx.skip('espeak-ng and sox are needed to synthesise the clip');
    const engine = new SherpaOfflineEngine({ family: 'sense-voice', modelPath: real as string });
    try {
      const r = await engine.transcribe(readPcm(speechWav('hello world this is a test')).samples, { language: 'en' });
      const words = r.text.toLowerCase().replace(/[^a-z ]/g, '');
      expect(words).toContain('hello');
      expect(words).toContain('world');
      expect(r.language).toBe('en');
    } finally {
      await engine.dispose();
    }
  }, 240_000);
});
