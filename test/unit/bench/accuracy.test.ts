import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EN_SENTENCES, findModels, runAccuracy, ZH_SENTENCES } from '../../../bench/accuracy.ts';
import { isEngineBuilt } from '../../../src/main/asr/whisper-addon.ts';
import { hasTool } from '../../helpers/audio-fixtures.ts';
import { writeParaformerModel } from '../../helpers/paraformer-model.ts';
import { writeSenseVoiceModel } from '../../helpers/sense-voice-model.ts';
import { ensureRandomWhisperModel } from '../../helpers/whisper-model.ts';

/*
 * The opt-in accuracy run (bench/accuracy.ts) end to end on a models folder laid out as the app keeps it
 * (<data dir>/models: ggml-<name>.bin, sherpa folders <name>/model*.onnx + tokens.txt), holding tiny
 * random-weight models: every model is found and run through the engine host on espeak-ng speech, and
 * the CER of a model that recognises nothing is ≈ 1.
 */

let dataDir: string;
const canRun = hasTool('espeak-ng') && hasTool('sox') && isEngineBuilt();

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-accuracy-'));
  const models = path.join(dataDir, 'models');
  fs.mkdirSync(models, { recursive: true });
  fs.copyFileSync(ensureRandomWhisperModel(), path.join(models, 'ggml-tiny.bin'));
  fs.copyFileSync(ensureRandomWhisperModel(), path.join(models, 'ggml-tiny.en.bin'));
  // Catalog names (family and languages from the catalog) and an unknown folder (family from the graph).
  writeSenseVoiceModel(path.join(models, 'sense-voice-small-int8'));
  writeParaformerModel(path.join(models, 'paraformer-zh-small-int8'));
  writeSenseVoiceModel(path.join(models, 'my-sense-voice'));
  fs.mkdirSync(path.join(models, 'not-a-model'));
  fs.writeFileSync(path.join(models, 'notes.txt'), 'x');
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('accuracy run (bench/accuracy.ts)', () => {
  it('has ~20 sentences per language', () => {
    expect(ZH_SENTENCES).toHaveLength(20);
    expect(EN_SENTENCES).toHaveLength(20);
  });

  it('finds the models the way the app lays them out, given the data dir or its models folder', () => {
    for (const dir of [dataDir, path.join(dataDir, 'models')]) {
      const { models } = findModels(dir);
      expect(models.map((m) => [m.name, m.engine, m.languages])).toEqual([
        ['my-sense-voice', 'sense-voice', ['zh', 'en']],
        ['paraformer-zh-small-int8', 'paraformer', ['zh']],
        ['sense-voice-small-int8', 'sense-voice', ['zh', 'en', 'ja', 'ko', 'yue'].filter((l) => l === 'zh' || l === 'en')],
        ['tiny', 'whisper', ['zh', 'en']],
        ['tiny.en', 'whisper', ['en']],
      ]);
    }
  });

  it.skipIf(!canRun)('runs every model on synthesized zh and en speech and reports CER ≈ 1 for random weights', { timeout: 180_000 }, async () => {
    const resultsFile = path.join(dataDir, 'accuracy.json');
    const lines: string[] = [];
    const scores = await runAccuracy({ modelsDir: dataDir, sentences: 2, threads: 1, resultsFile, log: (l) => lines.push(l) });
    expect(scores.map((s) => s.model.name)).toEqual(['my-sense-voice', 'paraformer-zh-small-int8', 'sense-voice-small-int8', 'tiny', 'tiny.en']);
    for (const s of scores) {
      expect(s.error).toBeUndefined();
      expect(Object.keys(s.byLanguage).sort()).toEqual([...s.model.languages].sort());
      for (const l of Object.values(s.byLanguage)) {
        expect(l.sentences).toBe(2);
        expect(l.failures).toBe(0);
        expect(l.chars).toBeGreaterThan(10);
        expect(l.cer).toBeGreaterThan(0.6); // recognises nothing
        expect(l.cer).toBeLessThan(5);
      }
    }
    const written = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Record<string, { figures: Record<string, unknown>; pass: boolean }>;
    expect(Object.keys(written).sort()).toEqual(['my-sense-voice', 'paraformer-zh-small-int8', 'sense-voice-small-int8', 'tiny', 'tiny.en']);
    expect(written['tiny']?.figures).toMatchObject({ engine: 'whisper', cer_zh: expect.any(Number), cer_en: expect.any(Number) });
    expect(written['tiny.en']?.figures).not.toHaveProperty('cer_zh');
    expect(lines.some((l) => /^ACC sense-voice-small-int8 \(sense-voice\) zh: CER \d\.\d{3} over 2 sentences/.test(l))).toBe(true);
  });
});
