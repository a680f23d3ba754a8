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

/** Runs Silero over 16 kHz mono PCM and returns the speech spans (in samples). */
export function detectSpeech(samples: Float32Array, opts: VadOptions = {}): SpeechSpan[] {
  const model = opts.modelPath ?? defaultVadModelPath();
  if (!fs.existsSync(model)) throw new Error(`VAD model not found: ${model}`);
  sherpa ??= nodeRequire('sherpa-onnx-node') as SherpaModule;
  const windowSize = 512; // Silero v5 works on 32 ms windows at 16 kHz
  const vad = new sherpa.Vad(
    {
      sileroVad: { model, threshold: opts.threshold ?? 0.5, minSilenceDuration: 0.3, minSpeechDuration: 0.1, windowSize, maxSpeechDuration: 30 },
      sampleRate: SAMPLE_RATE,
      numThreads: 1,
      debug: 0,
    },
    Math.ceil(samples.length / SAMPLE_RATE) + 2,
  );
  const spans: SpeechSpan[] = [];
  const drain = (): void => {
    while (!vad.isEmpty()) {
      const seg = vad.front(false);
      spans.push({ start: seg.start, end: seg.start + seg.samples.length });
      vad.pop();
    }
  };
  for (let at = 0; at < samples.length; at += windowSize) {
    vad.acceptWaveform(samples.slice(at, Math.min(samples.length, at + windowSize)));
    drain();
  }
  vad.flush();
  drain();
  return spans;
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
