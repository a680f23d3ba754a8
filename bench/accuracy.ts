import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { defaultThreads, LocalWhisperEngine } from '../src/main/asr/local-engine.ts';
import { findModel, isEnglishOnlyName } from '../src/main/asr/model-catalog.ts';
import { MODELS_DIR } from '../src/main/asr/model-manager.ts';
import { readOnnxInfo } from '../src/main/asr/onnx-info.ts';
import type { SherpaFamily } from '../src/main/asr/sherpa-families.ts';
import { decodeWav } from '../src/main/audio/wav.ts';
import { cerCounts } from './lib/cer.ts';
import { pct, writeResults, type BenchEntry } from './lib/report.ts';

/*
 * The opt-in accuracy run: `node bench/run.ts --accuracy MODELS_DIR` (or `npm run bench -- --accuracy
 * MODELS_DIR`, or `node bench/accuracy.ts MODELS_DIR`). For every model in MODELS_DIR — laid out as the
 * app keeps them in <data dir>/models (model-catalog.ts: whisper.cpp's ggml-<name>.bin files, sherpa-onnx
 * folders <name>/ with model.int8.onnx or model.onnx beside tokens.txt; the data dir itself works too) —
 * it synthesises a fixed set of Chinese and English sentences with espeak-ng (voices cmn and en-us), runs
 * each through the engine the app would use (the engine host, warm, the recognition language set) and
 * reports the character error rate per model and language (lib/cer.ts). Results: bench/results/accuracy.json.
 * espeak-ng's robotic voice is far from a person speaking: the figures rank models, they are not the
 * published CERs. With random-weight models the CER is ≈ 1 (what the test checks).
 */

export type AccLanguage = 'zh' | 'en';

/** Chinese sentences: everyday dictation, no digits (ITN would write them as numerals). */
export const ZH_SENTENCES: readonly string[] = [
  '今天天气很好，我们去公园散步吧。',
  '请帮我把这份文件发给项目经理。',
  '明天上午开会讨论新产品的设计。',
  '我想订一张去北京的火车票。',
  '这家餐厅的菜很好吃，价格也不贵。',
  '你能不能把音乐的声音调小一点？',
  '周末我打算在家里看书休息。',
  '他每天早上坐地铁去公司上班。',
  '请记得下班前关掉办公室的电脑。',
  '我们需要在月底之前完成这个报告。',
  '孩子们在操场上踢足球。',
  '这个问题我们下次再讨论吧。',
  '妈妈在厨房里做晚饭。',
  '图书馆晚上也开放。',
  '我忘记带雨伞了，外面正在下雨。',
  '请把空调的温度调高一些。',
  '医生建议他多喝水，早点睡觉。',
  '这次旅行让我认识了很多新朋友。',
  '学习新的语言需要耐心。',
  '谢谢你的帮助，我们下周见。',
];

/** English sentences of the same kind. */
export const EN_SENTENCES: readonly string[] = [
  'Please open the file and send an email to my team.',
  'The meeting has been moved to tomorrow afternoon.',
  'Can you remind me to call the doctor after lunch?',
  'The weather is nice, so we should walk to the station.',
  'Turn off the lights in the living room.',
  'I would like a cup of coffee with milk.',
  'Our new product will launch early next month.',
  'The train was late because of the heavy snow.',
  'Please review the report before the deadline.',
  'She is learning to play the piano this year.',
  'We need more time to finish the project.',
  'The children are playing football in the park.',
  'Let me know if you have any questions.',
  'The library closes early on weekends.',
  'He forgot his umbrella and got wet in the rain.',
  'Add milk and bread to the shopping list.',
  'This restaurant serves the best noodles in town.',
  'The software update fixed several bugs.',
  'Thank you for your help with the presentation.',
  'See you at the airport on Friday morning.',
];

const SENTENCES: Readonly<Record<AccLanguage, readonly string[]>> = { zh: ZH_SENTENCES, en: EN_SENTENCES };
const VOICE: Readonly<Record<AccLanguage, string>> = { zh: 'cmn', en: 'en-us' };

/** A model found in the folder. */
export interface FoundModel {
  /** Catalog-style name: whisper "small-q5_1", sherpa "<folder>" (or "<folder>/model.onnx" for a second file). */
  readonly name: string;
  readonly engine: 'whisper' | SherpaFamily;
  readonly path: string;
  readonly languages: readonly AccLanguage[];
}

/** What sherpa family an ONNX file is: the catalog's word for a known folder, else its inputs and metadata. */
function sherpaFamilyOf(folder: string, file: string): SherpaFamily | undefined {
  const known = findModel(folder)?.sherpa?.family;
  if (known !== undefined) return known;
  try {
    const info = readOnnxInfo(file);
    if (info.inputs.includes('language') && info.inputs.includes('text_norm')) return 'sense-voice';
    if (info.metadata.get('model_type') === 'paraformer' || info.inputs.includes('speech')) return 'paraformer';
  } catch {
    // not readable: skipped below
  }
  return undefined;
}

/** Languages a model is run on: the catalog's where known (English-only whisper → en), else both. */
function languagesOf(name: string, engine: FoundModel['engine']): AccLanguage[] {
  const entry = findModel(name);
  if (engine === 'whisper') return isEnglishOnlyName(name) ? ['en'] : ['zh', 'en'];
  const langs = entry?.sherpa?.languages.filter((l): l is AccLanguage => l === 'zh' || l === 'en');
  return langs !== undefined && langs.length > 0 ? langs : ['zh', 'en'];
}

/** Models in `dir` (and in `dir`/models when given the app's data dir), sorted by name. */
export function findModels(dir: string): { models: FoundModel[]; skipped: string[] } {
  const roots = [dir, path.join(dir, MODELS_DIR)].filter((d) => fs.existsSync(d) && fs.statSync(d).isDirectory());
  if (roots.length === 0) throw new Error(`accuracy: ${dir} is not a folder`);
  const models: FoundModel[] = [];
  const skipped: string[] = [];
  for (const root of roots) {
    for (const ent of fs.readdirSync(root, { withFileTypes: true })) {
      const full = path.join(root, ent.name);
      const m = /^ggml-(.+)\.bin$/.exec(ent.name);
      if (m && ent.isFile()) {
        const name = m[1] as string;
        models.push({ name, engine: 'whisper', path: full, languages: languagesOf(name, 'whisper') });
        continue;
      }
      if (!ent.isDirectory() || !fs.existsSync(path.join(full, 'tokens.txt'))) continue;
      const files = ['model.int8.onnx', 'model.onnx'].filter((f) => fs.existsSync(path.join(full, f)));
      files.forEach((f, i) => {
        const file = path.join(full, f);
        const family = sherpaFamilyOf(ent.name, file);
        const name = i === 0 ? ent.name : `${ent.name}/${f}`;
        if (family === undefined) skipped.push(`${name}: not a SenseVoice or Paraformer model`);
        else models.push({ name, engine: family, path: file, languages: languagesOf(ent.name, family) });
      });
    }
  }
  models.sort((a, b) => a.name.localeCompare(b.name));
  return { models, skipped };
}

/** espeak-ng speech, 16 kHz mono 16-bit with 0.3 s / 0.5 s of silence around it; cached by recipe. */
export function synthesize(text: string, lang: AccLanguage, cacheDir: string): Float32Array {
  const recipe = `acc|${VOICE[lang]}|150|0.3|0.5|${text}`;
  const out = path.join(cacheDir, `${createHash('sha1').update(recipe).digest('hex').slice(0, 16)}.wav`);
  if (!fs.existsSync(out)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const raw = `${out}.${process.pid}.raw.wav`;
    const tmp = `${out}.${process.pid}.tmp.wav`;
    execFileSync('espeak-ng', ['-v', VOICE[lang], '-s', '150', '-w', raw, text], { stdio: 'ignore' });
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', tmp, 'pad', '0.3', '0.5'], { stdio: 'ignore' });
    fs.rmSync(raw, { force: true });
    fs.renameSync(tmp, out);
  }
  return decodeWav(fs.readFileSync(out)).samples;
}

/** One model's figures for one language. */
export interface LanguageScore {
  readonly cer: number;
  readonly errors: number;
  readonly chars: number;
  readonly sentences: number;
  readonly failures: number;
  readonly medianMs: number;
  /** A few reference → hypothesis pairs, for the eye. */
  readonly samples: readonly string[];
}

export interface ModelScore {
  readonly model: FoundModel;
  readonly byLanguage: Partial<Record<AccLanguage, LanguageScore>>;
  readonly loadMs: number;
  readonly error?: string;
}

export interface AccuracyOptions {
  readonly modelsDir: string;
  /** Sentences per language (default all 20). */
  readonly sentences?: number;
  readonly threads?: number;
  /** Where the results go (default bench/results/accuracy.json); null = not written. */
  readonly resultsFile?: string | null;
  readonly audioCacheDir?: string;
  readonly log?: (line: string) => void;
}

async function scoreModel(model: FoundModel, opts: AccuracyOptions, threads: number, log: (l: string) => void): Promise<ModelScore> {
  const cacheDir = opts.audioCacheDir ?? path.join(import.meta.dirname, '.cache', 'accuracy-audio');
  const engine = new LocalWhisperEngine({
    modelPath: model.path,
    threads,
    idleUnloadMs: 0,
    ...(model.engine !== 'whisper' ? { sherpa: { family: model.engine } } : {}),
  });
  const byLanguage: Partial<Record<AccLanguage, LanguageScore>> = {};
  let loadMs = 0;
  try {
    const t = performance.now();
    await engine.warmUp();
    loadMs = performance.now() - t;
    for (const lang of model.languages) {
      const sentences = SENTENCES[lang].slice(0, opts.sentences ?? SENTENCES[lang].length);
      let errors = 0;
      let chars = 0;
      let failures = 0;
      const times: number[] = [];
      const samples: string[] = [];
      for (const ref of sentences) {
        const pcm = synthesize(ref, lang, cacheDir);
        let hyp = '';
        try {
          const t0 = performance.now();
          hyp = (await engine.transcribe(pcm, { language: lang })).text;
          times.push(performance.now() - t0);
        } catch (err) {
          failures++;
          log(`ACC ${model.name} ${lang}: "${ref}" failed: ${(err as Error).message}`);
        }
        const c = await cerCounts(ref, hyp);
        errors += c.errors;
        chars += c.length;
        if (samples.length < 3) samples.push(`${ref} → ${hyp}`);
      }
      byLanguage[lang] = { cer: chars === 0 ? 0 : errors / chars, errors, chars, sentences: sentences.length, failures, medianMs: pct(times, 50), samples };
    }
    return { model, byLanguage, loadMs };
  } catch (err) {
    return { model, byLanguage, loadMs, error: (err as Error).message };
  } finally {
    await engine.dispose();
  }
}

/** Runs every model in the folder; prints a line per model and language and writes the results file. */
export async function runAccuracy(opts: AccuracyOptions): Promise<ModelScore[]> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const threads = opts.threads ?? defaultThreads();
  const { models, skipped } = findModels(opts.modelsDir);
  for (const s of skipped) log(`ACC skipped ${s}`);
  if (models.length === 0) log(`ACC: no models in ${opts.modelsDir} (ggml-*.bin, or folders with model.int8.onnx / model.onnx + tokens.txt)`);
  const scores: ModelScore[] = [];
  for (const model of models) {
    const s = await scoreModel(model, opts, threads, log);
    scores.push(s);
    if (s.error !== undefined) log(`ACC ${model.name} (${model.engine}): ERROR ${s.error}`);
    for (const [lang, l] of Object.entries(s.byLanguage)) {
      log(`ACC ${model.name} (${model.engine}) ${lang}: CER ${l.cer.toFixed(3)} over ${l.sentences} sentences (${l.chars} chars${l.failures > 0 ? `, ${l.failures} failed` : ''}), median ${l.medianMs.toFixed(0)} ms`);
      for (const line of l.samples) log(`ACC   ${line}`);
    }
  }
  if (opts.resultsFile !== null) {
    const file = opts.resultsFile ?? path.join(import.meta.dirname, 'results', 'accuracy.json');
    const entries: Record<string, BenchEntry> = {};
    for (const s of scores) {
      const langs = Object.values(s.byLanguage);
      const errors = langs.reduce((n, l) => n + l.errors, 0);
      const chars = langs.reduce((n, l) => n + l.chars, 0);
      const figures: Record<string, number | string | boolean> = { engine: s.model.engine, file: path.basename(s.model.path), threads, load_ms: s.loadMs };
      for (const [lang, l] of Object.entries(s.byLanguage)) {
        figures[`cer_${lang}`] = l.cer;
        figures[`sentences_${lang}`] = l.sentences;
        figures[`failures_${lang}`] = l.failures;
        figures[`median_ms_${lang}`] = l.medianMs;
      }
      if (s.error !== undefined) figures.error = s.error;
      const failures = langs.reduce((n, l) => n + l.failures, 0);
      entries[s.model.name] = { ratio: chars === 0 ? NaN : errors / chars, target: 'report CER per language (lower is better)', pass: s.error === undefined && failures === 0, figures };
    }
    writeResults(entries, file);
    log(`ACC: results in ${path.relative(process.cwd(), file)}`);
  }
  return scores;
}

/** `--accuracy DIR` / `--accuracy=DIR` from bench/run.ts; returns the exit code. */
export async function runAccuracyCli(args: readonly string[]): Promise<number> {
  const i = args.findIndex((a) => a === '--accuracy' || a.startsWith('--accuracy='));
  const arg = args[i] ?? '';
  const dir = arg.startsWith('--accuracy=') ? arg.slice('--accuracy='.length) : args[i + 1];
  if (dir === undefined || dir === '' || dir.startsWith('--')) {
    console.error('usage: node bench/run.ts --accuracy MODELS_DIR   (a folder of ggml-*.bin files and sherpa-onnx model folders, e.g. <data dir>/models)');
    return 2;
  }
  const scores = await runAccuracy({ modelsDir: path.resolve(dir) });
  return scores.some((s) => s.error !== undefined) ? 1 : 0;
}

if (import.meta.main) {
  process.exitCode = await runAccuracyCli(['--accuracy', ...process.argv.slice(2)]);
}
