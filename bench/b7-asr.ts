import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { adaptiveAudioCtx } from '../src/main/asr/audio-context.ts';
import { LocalWhisperEngine } from '../src/main/asr/local-engine.ts';
import { ENGINE_NOT_BUILT_MESSAGE, isEngineBuilt, whisperAddon } from '../src/main/asr/whisper-addon.ts';
import { decodeWav } from '../src/main/audio/wav.ts';
import { ensureRandomWhisperModel, TINY_SHAPE } from '../test/helpers/whisper-model.ts';
import { mergeResults, pct, printEntry, type BenchEntry } from './lib/report.ts';

/*
 * B7: local ASR latency per dictation on a 3 s espeak-ng clip, with a random-weight model of real "tiny"
 * dimensions (77.7 MB), same thread count on both sides.
 *   baseline: whisper-node (devDependency kept only for this): it spawns whisper.cpp's CLI per call,
 *             which reloads the model every time.
 *   ours:     the warm engine: smart-whisper in the engine host process, model loaded once.
 * Target: ours ≤ 0.6× the baseline (median per call). Run alone: node bench/b7-asr.ts [--quick]
 */

const require = createRequire(import.meta.url);
const cacheDir = path.join(import.meta.dirname, '.cache');
const CLIP_TEXT = 'please open the file and send an email to my team';

function median(v: readonly number[]): number {
  return pct(v, 50);
}

/** A 3.00 s 16 kHz mono clip: espeak-ng speech padded/trimmed with sox. */
function makeClip(): string {
  const out = path.join(cacheDir, 'b7-clip-3s.wav');
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(cacheDir, { recursive: true });
  const raw = path.join(cacheDir, 'b7-raw.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, CLIP_TEXT], { stdio: 'ignore' });
  execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', out, 'pad', '0.2', '3', 'trim', '0', '3'], { stdio: 'ignore' });
  fs.rmSync(raw, { force: true });
  return out;
}

/** whisper-node's whisper.cpp checkout; its `main` is built once (whisper-node would run make inside require()). */
function prepareWhisperNode(): { dir: string; buildSeconds: number } {
  const dir = path.join(path.dirname(require.resolve('whisper-node/package.json')), 'lib', 'whisper.cpp');
  if (fs.existsSync(path.join(dir, 'main'))) return { dir, buildSeconds: 0 };
  console.log('B7: building whisper-node\'s whisper.cpp CLI once (make main)…');
  const t = performance.now();
  const r = spawnSync('make', [`-j${os.availableParallelism()}`, 'main'], { cwd: dir, stdio: 'ignore' });
  if (r.status !== 0) throw new Error('B7: could not build whisper-node (make failed)');
  return { dir, buildSeconds: (performance.now() - t) / 1000 };
}

/**
 * Runs whisper-node's own API in a child process (its import changes process.cwd(), which must not leak
 * into the benchmark) and returns per-call wall times in ms.
 */
function runBaseline(clip: string, model: string, runs: number, warmup: boolean): number[] {
  const script = `
    const { whisper } = require(${JSON.stringify(require.resolve('whisper-node'))});
    (async () => {
      const times = [];
      const skip = ${warmup ? 1 : 0};
      for (let i = 0; i < ${runs} + skip; i++) {
        const t = performance.now();
        const r = await whisper(${JSON.stringify(clip)}, { modelPath: ${JSON.stringify(model)}, whisperOptions: { language: 'en' } });
        if (r === undefined) throw new Error('whisper-node failed');
        if (i >= skip) times.push(performance.now() - t); // a warm-up call fills the page cache
      }
      process.stdout.write('\\nB7RESULT ' + JSON.stringify(times) + '\\n');
    })().catch((e) => { console.error(String(e)); process.exit(1); });`;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const line = out.split('\n').find((l) => l.startsWith('B7RESULT '));
  if (line === undefined) throw new Error(`B7: whisper-node gave no result:\n${out.slice(-500)}`);
  return JSON.parse(line.slice('B7RESULT '.length)) as number[];
}

/**
 * Which build of the addon ran: the CPU variant (avx2, baseline, default) and, from scripts/build-whisper.mjs's
 * stamp, the project it was compiled with: 'tuned' (llamafile sgemm + OpenMP) or 'package'.
 */
function addonVariant(): string {
  const addon = whisperAddon();
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(path.dirname(addon.path), 'tingxie-build.json'), 'utf8')) as { variants?: Record<string, { built?: string }> };
    return `${addon.variant}, ${stamp.variants?.[addon.variant]?.built ?? 'unknown'}`;
  } catch {
    return `${addon.variant}, unstamped`;
  }
}

/** Runs B7 and merges its entry into bench/results/latest.json. */
export async function runB7({ quick }: { quick: boolean }): Promise<BenchEntry> {
  if (!isEngineBuilt()) throw new Error(`B7: ${ENGINE_NOT_BUILT_MESSAGE}`);
  const runs = quick ? 3 : 7;
  // whisper.cpp's CLI (the baseline) uses min(4, cores) threads by default: give ours the same.
  const threads = Math.min(4, os.availableParallelism());
  const t0 = performance.now();
  const model = ensureRandomWhisperModel(TINY_SHAPE);
  const clip = makeClip();
  const pcm = decodeWav(fs.readFileSync(clip)).samples;
  const wn = prepareWhisperNode();
  const setupSeconds = (performance.now() - t0) / 1000;

  // As the app runs it (adaptive encoder window for short clips), and, for the record, with the full 30 s window.
  const timeOurs = async (adaptiveContext: boolean): Promise<{ times: number[]; loadMs: number }> => {
    const engine = new LocalWhisperEngine({ modelPath: model, threads, idleUnloadMs: 0, adaptiveContext });
    const times: number[] = [];
    try {
      const tl = performance.now();
      await engine.warmUp();
      const loadMs = performance.now() - tl;
      await engine.transcribe(pcm, { language: 'en' }); // same warm-up call the baseline gets
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await engine.transcribe(pcm, { language: 'en' });
        times.push(performance.now() - t);
      }
      if (engine.status().loads !== 1) throw new Error(`B7: the model was loaded ${engine.status().loads} times; it must stay warm`);
      return { times, loadMs };
    } finally {
      await engine.dispose();
    }
  };
  const { times: ours, loadMs } = await timeOurs(true);
  const { times: oursFullWindow } = await timeOurs(false);
  // Ours ran first, so the model file is in the page cache: the quick run skips the baseline's warm-up call.
  const baseline = runBaseline(clip, model, quick ? 2 : runs, !quick);
  const ratio = median(ours) / median(baseline);
  const entry: BenchEntry = {
    ratio,
    target: '≤ 0.6×',
    pass: ratio <= 0.6,
    figures: {
      mode: quick ? 'quick' : 'full',
      runs,
      baseline_runs: baseline.length,
      threads,
      clip_seconds: pcm.length / 16000,
      model_mb: fs.statSync(model).size / 1e6,
      ours_median_ms: median(ours),
      ours_max_ms: Math.max(...ours),
      ours_model_load_ms: loadMs,
      ours_audio_ctx: adaptiveAudioCtx(pcm.length / 16000),
      ours_full_window_median_ms: median(oursFullWindow),
      ratio_full_window: median(oursFullWindow) / median(baseline),
      baseline_median_ms: median(baseline),
      baseline_max_ms: Math.max(...baseline),
      setup_s: setupSeconds,
      whisper_node_build_s: wn.buildSeconds,
      addon_build: addonVariant(),
      load_average_1m: os.loadavg()[0] ?? -1,
    },
  };
  mergeResults({ B7: entry });
  return entry;
}

if (import.meta.main) {
  const entry = await runB7({ quick: process.argv.includes('--quick') });
  printEntry('B7', entry);
}
