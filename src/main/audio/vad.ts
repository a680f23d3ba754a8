import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { unpackedPath } from '../platform/unpacked-path.ts';
import { SAMPLE_RATE } from './pcm.ts';

/*
 * Silero VAD trimming of leading/trailing silence (audio.vad_enabled). The Silero ONNX model ships inside
 * the @ricky0123/vad-web npm package; sherpa-onnx-node runs it with its own bundled onnxruntime (no
 * install hook, no download). Both load lazily: VAD is optional and the cold start must stay light.
 */

/** A span of speech in samples, [start, end). */
export interface SpeechSpan {
  readonly start: number;
  readonly end: number;
}

/** Result of trimming: the kept audio and what was detected. */
export interface VadTrim {
  readonly samples: Float32Array;
  /** Speech spans found, in samples of the input. Empty: no speech at all. */
  readonly spans: readonly SpeechSpan[];
  /** Kept range of the input, in samples (after padding). */
  readonly keptStart: number;
  readonly keptEnd: number;
}

/** Options of the detector. */
export interface VadOptions {
  /** Silero model file; default: silero_vad_v5.onnx from @ricky0123/vad-web. */
  readonly modelPath?: string;
  /** Speech probability threshold (0..1). */
  readonly threshold?: number;
  /** Audio kept before the first and after the last speech span (ms): whisper likes a little margin. */
  readonly padMs?: number; // default 30
}

interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  front(enableExternalBuffer?: boolean): { start: number; samples: Float32Array };
  pop(): void;
  flush(): void;
  reset(): void;
}
interface SherpaModule {
  Vad: new (config: unknown, bufferSizeInSeconds: number) => SherpaVad;
}

// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);
let sherpa: SherpaModule | undefined;

/**
 * Path of the Silero v5 model shipped inside @ricky0123/vad-web, where native code can open it: in a
 * packaged app the package resolves inside app.asar, which sherpa-onnx cannot read (it would log "does not
 * exist" and every dictation would come out as "no speech"), so the unpacked copy is used.
 */
export function defaultVadModelPath(resolve: (id: string) => string = nodeRequire.resolve): string {
  const pkg = resolve('@ricky0123/vad-web/package.json');
  return unpackedPath(path.join(path.dirname(pkg), 'dist', 'silero_vad_v5.onnx'));
}

/** Silero v5 works on 32 ms windows at 16 kHz. */
export const VAD_WINDOW = 512;

/** Silence (s) that ends a speech span: also the shortest pause a live decoder cuts at (speech-chunker.ts). */
export const VAD_MIN_SILENCE_SECONDS = 0.3;

/**
 * A Silero detector fed in order: `accept` takes any number of samples (windows of VAD_WINDOW are
 * formed inside, so how the audio is batched never changes the result) and returns the speech spans
 * that closed; `flush` closes the span still open at the end. `release` hands the native detector
 * back for the next recording (the detector must not be used after it).
 */
export interface SpeechDetector {
  accept(samples: Float32Array): SpeechSpan[];
  flush(): SpeechSpan[];
  release(): void;
}

/**
 * Idle native detectors by configuration. Opening one loads the Silero model: ~45 ms on the main thread
 * (~145 ms the first time, with sherpa-onnx itself), too long for every key-down; a released one is
 * reset and reused, and `prewarmSpeechDetector` opens the first one before any dictation.
 */
const idle = new Map<string, SherpaVad[]>();

function vadConfig(opts: VadOptions): { key: string; config: unknown; model: string } {
  const model = opts.modelPath ?? defaultVadModelPath();
  const threshold = opts.threshold ?? 0.5;
  const config = {
    sileroVad: { model, threshold, minSilenceDuration: VAD_MIN_SILENCE_SECONDS, minSpeechDuration: 0.1, windowSize: VAD_WINDOW, maxSpeechDuration: 30 },
    sampleRate: SAMPLE_RATE,
    numThreads: 1,
    debug: 0,
  };
  return { key: `${model}|${threshold}`, config, model };
}

/**
 * Samples the native detector keeps (seconds): a span is cut at maxSpeechDuration (30 s) and the
 * detector drops what lies before the current span, so this covers the longest span with room to spare
 * whatever the recording's length.
 */
const VAD_BUFFER_SECONDS = 64;

function takeVad(opts: VadOptions): { vad: SherpaVad; key: string } {
  const { key, config, model } = vadConfig(opts);
  const reused = idle.get(key)?.pop();
  if (reused !== undefined) return { vad: reused, key };
  if (!fs.existsSync(model)) throw new Error(`VAD model not found: ${model}`);
  sherpa ??= nodeRequire('sherpa-onnx-node') as SherpaModule;
  return { vad: new sherpa.Vad(config, VAD_BUFFER_SECONDS), key };
}

/** Opens one detector ahead of the first recording (app start), so no key-down pays for loading the model. */
export function prewarmSpeechDetector(opts: VadOptions = {}): void {
  openSpeechDetector(opts).release();
}

/** Opens a detector (a released one when there is one). Throws when the model is missing. */
export function openSpeechDetector(opts: VadOptions = {}): SpeechDetector {
  const { vad, key } = takeVad(opts);
  let released = false;
  let pending = new Float32Array(0);
  const drain = (): SpeechSpan[] => {
    const spans: SpeechSpan[] = [];
    while (!vad.isEmpty()) {
      const seg = vad.front(false);
      spans.push({ start: seg.start, end: seg.start + seg.samples.length });
      vad.pop();
    }
    return spans;
  };
  const live = (): void => {
    if (released) throw new Error('the speech detector was released');
  };
  return {
    accept(samples) {
      live();
      const all = pending.length === 0 ? samples : concat(pending, samples);
      const whole = all.length - (all.length % VAD_WINDOW);
      const spans: SpeechSpan[] = [];
      for (let at = 0; at < whole; at += VAD_WINDOW) {
        vad.acceptWaveform(all.slice(at, at + VAD_WINDOW));
        spans.push(...drain());
      }
      pending = all.slice(whole);
      return spans;
    },
    flush() {
      live();
      // The last partial window, as detectSpeech always fed it.
      const spans: SpeechSpan[] = [];
      if (pending.length > 0) {
        vad.acceptWaveform(pending);
        pending = new Float32Array(0);
        spans.push(...drain());
      }
      vad.flush();
      spans.push(...drain());
      return spans;
    },
    release() {
      if (released) return;
      released = true;
      // Reset: the model state, the sample counter (spans start at 0 again) and the buffer.
      vad.reset();
      const list = idle.get(key) ?? [];
      if (list.length < 2) list.push(vad);
      idle.set(key, list);
    },
  };
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Runs Silero over 16 kHz mono PCM and returns the speech spans (in samples). */
export function detectSpeech(samples: Float32Array, opts: VadOptions = {}): SpeechSpan[] {
  const detector = openSpeechDetector(opts);
  try {
    return [...detector.accept(samples), ...detector.flush()];
  } finally {
    detector.release();
  }
}

/** Trims leading and trailing non-speech; with no speech at all the result is empty. */
export function trimSilence(samples: Float32Array, opts: VadOptions = {}): VadTrim {
  const spans = detectSpeech(samples, opts);
  const first = spans[0];
  const last = spans[spans.length - 1];
  if (first === undefined || last === undefined) return { samples: new Float32Array(0), spans, keptStart: 0, keptEnd: 0 };
  const pad = Math.round(((opts.padMs ?? 30) / 1000) * SAMPLE_RATE);
  const keptStart = Math.max(0, first.start - pad);
  const keptEnd = Math.min(samples.length, last.end + pad);
  return { samples: samples.subarray(keptStart, keptEnd), spans, keptStart, keptEnd };
}
