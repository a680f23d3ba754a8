import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultThreads, LocalWhisperEngine } from '../src/main/asr/local-engine.ts';
import { ENGINE_NOT_BUILT_MESSAGE, isEngineBuilt } from '../src/main/asr/whisper-addon.ts';
import { decodeWav } from '../src/main/audio/wav.ts';
import { ensureSenseVoiceFullModel, senseVoiceFullParamCount } from '../test/helpers/sense-voice-full-model.ts';
import { ensureRandomWhisperModel, SMALL_SHAPE } from '../test/helpers/whisper-model.ts';
import { mergeResults, pct, printEntry, type BenchEntry } from './lib/report.ts';

/*
 * B13: the sherpa-onnx engine vs whisper.cpp on the same 3 s espeak-ng clip, models of the same size
 * class with random weights, same threads, both warm in the engine host the app uses (LocalWhisperEngine;
 * load time excluded from the per-call figures and reported on its own).
 *   sherpa:  SenseVoice-Small with the real architecture (test/helpers/sense-voice-full-model.ts: SAN-M
 *            encoder 50 + 20 blocks, d 512, CTC head over 25055 tokens, 234 M parameters), float32 like
 *            model.onnx, and QUInt8 like the shipped model.int8.onnx.
 *   whisper: random weights with the real "small" dimensions (244 M parameters), f16 like ggml-small.bin
 *            and Q8_0 like ggml-small-q8_0.bin, run as the app runs it (adaptive encoder window), decoding
 *            a scripted 6-word text (~1 token per word here; a real transcript of this clip is ~12 tokens).
 * The cost of a dense network does not depend on its weights' values, so these are the real models'
 * speeds to within what the random decoder script changes (whisper's decoder loop is short here).
 * ratio = median SenseVoice (float32) / median whisper small (f16): the unquantized pair;
 * ratio_8bit = SenseVoice int8 / whisper small q8_0: the 8-bit pair (the shipped SenseVoice is int8).
 * Threads: the engine host gives sherpa-onnx defaultThreads() (it has no thread setting yet), so whisper
 * gets the same number. Run alone: node bench/b13-sherpa-vs-whisper.ts [--quick]
 */

const cacheDir = path.join(import.meta.dirname, '.cache');
const CLIP_TEXT = 'please open the file and send an email to my team';

/** The same 3.00 s clip as B7 (espeak-ng en-us, padded/trimmed with sox). */
function makeClip(): string {
  const out = path.join(cacheDir, 'b13-clip-3s.wav');
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(cacheDir, { recursive: true });
  const raw = path.join(cacheDir, `b13-raw-${process.pid}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, CLIP_TEXT], { stdio: 'ignore' });
  execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', out, 'pad', '0.2', '3', 'trim', '0', '3'], { stdio: 'ignore' });
  fs.rmSync(raw, { force: true });
  return out;
}

interface Timed {
  readonly times: number[];
  readonly loadMs: number;
  readonly text: string;
}

/** Loads `engine` (timed), makes one warm-up call, then `runs` timed calls; the model must stay loaded once. */
async function timeEngine(label: string, engine: LocalWhisperEngine, pcm: Float32Array, runs: number): Promise<Timed> {
  try {
    const tl = performance.now();
    await engine.warmUp();
    const loadMs = performance.now() - tl;
    // The first call pays onnxruntime's / ggml's one-time allocations: a warm engine has made it already.
    const first = await engine.transcribe(pcm, { language: 'en' });
    if (first.text.trim() === '') throw new Error(`B13: ${label} returned no text: the model did not run`);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await engine.transcribe(pcm, { language: 'en' });
      times.push(performance.now() - t);
    }
    if (engine.status().loads !== 1) throw new Error(`B13: ${label} was loaded ${engine.status().loads} times; it must stay warm`);
    return { times, loadMs, text: first.text };
  } finally {
    await engine.dispose();
  }
}

/** Runs B13 and merges its entry into bench/results/latest.json. */
export async function runB13({ quick }: { quick: boolean }): Promise<BenchEntry> {
  if (!isEngineBuilt()) throw new Error(`B13: ${ENGINE_NOT_BUILT_MESSAGE}`);
  const runs = quick ? 3 : 9;
  const threads = defaultThreads();
  const load0 = os.loadavg()[0] ?? -1;
  const t0 = performance.now();
  const clip = makeClip();
  const pcm = decodeWav(fs.readFileSync(clip)).samples;
  const script = [' hello', ' world', ' this', ' is', ' a', ' test'];
  const whisperModel = ensureRandomWhisperModel({ ...SMALL_SHAPE, script });
  const whisperQ8 = ensureRandomWhisperModel({ ...SMALL_SHAPE, script, quant: 'q8_0' });
  const svFloat = ensureSenseVoiceFullModel();
  const svInt8 = ensureSenseVoiceFullModel({ quantized: true });
  const setupSeconds = (performance.now() - t0) / 1000;

  const whisper = (adaptiveContext: boolean, modelPath = whisperModel): LocalWhisperEngine => new LocalWhisperEngine({ modelPath, threads, idleUnloadMs: 0, adaptiveContext });
  const sherpa = (model: string): LocalWhisperEngine => new LocalWhisperEngine({ modelPath: model, sherpa: { family: 'sense-voice' }, threads, idleUnloadMs: 0 });
  const w = await timeEngine('whisper small', whisper(true), pcm, runs);
  const w8 = await timeEngine('whisper small q8_0', whisper(true, whisperQ8), pcm, runs);
  const sv = await timeEngine('SenseVoice-Small float32', sherpa(svFloat.model), pcm, runs);
  const sv8 = await timeEngine('SenseVoice-Small int8', sherpa(svInt8.model), pcm, runs);
  // For the record: whisper's full 30 s window (what whisper.cpp does without the app's adaptive window).
  const wFull = quick ? undefined : await timeEngine('whisper small (full window)', whisper(false), pcm, Math.max(3, Math.floor(runs / 3)));

  const med = (v: readonly number[]): number => pct(v, 50);
  const ratio = med(sv.times) / med(w.times);
  const entry: BenchEntry = {
    ratio,
    target: 'report the ratio (SenseVoice-Small / whisper small, median per 3 s clip; ratio_8bit: int8 / q8_0)',
    pass: Number.isFinite(ratio),
    figures: {
      runs,
      threads,
      clip_seconds: pcm.length / 16000,
      sense_voice_params_m: senseVoiceFullParamCount() / 1e6,
      sense_voice_fp32_mb: fs.statSync(svFloat.model).size / 1e6,
      sense_voice_int8_mb: fs.statSync(svInt8.model).size / 1e6,
      whisper_small_mb: fs.statSync(whisperModel).size / 1e6,
      whisper_small_q8_0_mb: fs.statSync(whisperQ8).size / 1e6,
      sense_voice_fp32_median_ms: med(sv.times),
      sense_voice_fp32_max_ms: Math.max(...sv.times),
      sense_voice_fp32_load_ms: sv.loadMs,
      sense_voice_int8_median_ms: med(sv8.times),
      sense_voice_int8_max_ms: Math.max(...sv8.times),
      sense_voice_int8_load_ms: sv8.loadMs,
      whisper_small_median_ms: med(w.times),
      whisper_small_max_ms: Math.max(...w.times),
      whisper_small_load_ms: w.loadMs,
      whisper_small_q8_0_median_ms: med(w8.times),
      whisper_small_q8_0_max_ms: Math.max(...w8.times),
      whisper_small_q8_0_load_ms: w8.loadMs,
      ratio_8bit: med(sv8.times) / med(w8.times),
      ...(wFull ? { whisper_small_full_window_median_ms: med(wFull.times), ratio_full_window: med(sv.times) / med(wFull.times) } : {}),
      setup_s: setupSeconds,
      load_average_1m_start: load0,
      load_average_1m_end: os.loadavg()[0] ?? -1,
    },
  };
  mergeResults({ B13: entry });
  return entry;
}

if (import.meta.main) {
  const t = performance.now();
  const entry = await runB13({ quick: process.argv.includes('--quick') });
  printEntry('B13', entry);
  console.log(`B13: ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
