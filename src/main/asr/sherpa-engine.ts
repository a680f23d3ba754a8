import { createRequire } from 'node:module';
import path from 'node:path';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { threadCount } from './local-engine.ts';
import { SHERPA_FAMILIES, type SherpaFamily, type SherpaFamilyDef, type SherpaRawResult } from './sherpa-families.ts';
import { checkSherpaModel } from './sherpa-model-check.ts';
import { AsrError, type AsrEngine, type AsrResult, type AsrSegment, type TranscribeOptions } from './types.ts';

/*
 * sherpa-onnx's offline recognizers — SenseVoice (one encoder pass + CTC greedy search) and Paraformer
 * (encoder + CIF predictor + one non-autoregressive decoder pass) — behind the same AsrEngine interface
 * as whisper. What differs per model family is in sherpa-families.ts. It runs in the calling process — meant to be the
 * isolated engine host — and keeps the recognizer warm: loaded on first use (or warmUp) and reused.
 *
 * SenseVoice takes the language and the ITN switch as model inputs, but sherpa-onnx reads them from the
 * recognizer config (OfflineSenseVoiceModelConfig, offline-recognizer-sense-voice-impl.h), and the Node
 * binding has no way to change it on a live recognizer. So the recognizer is rebuilt when the language
 * changes; a user's language rarely does, and keeping one recognizer per language would hold the
 * ~230 MB model several times.
 *
 * The model is validated before sherpa-onnx opens it (sherpa-model-check.ts): sherpa-onnx exits the
 * process on a missing metadata key. The load uses the async factory, which also turns onnxruntime's
 * load errors (a graph it rejects) into a rejection, where the sync constructor would abort.
 */

/** Options of the engine. */
export interface SherpaOfflineOptions {
  readonly family: SherpaFamily;
  /** model.onnx or model.int8.onnx. */
  readonly modelPath: string;
  /** Default: tokens.txt beside the model. */
  readonly tokensPath?: string;
  /** onnxruntime threads; 0 or undefined = from the CPU count. */
  readonly threads?: number;
  /** SenseVoice's inverse text normalization ("twenty three" → "23", punctuation); default on. */
  readonly itn?: boolean;
}

/** Engine state for the UI and tests. */
export interface SherpaEngineStatus {
  readonly loaded: boolean;
  /** Recognizer loads since construction (a warm engine loads once, SenseVoice once per language). */
  readonly loads: number;
  /** The recognizer variant loaded (SenseVoice: its language; Paraformer: ''). */
  readonly variant: string | undefined;
}

/** The parts of sherpa-onnx-node used here (it ships no TypeScript types). */
interface SherpaStream {
  acceptWaveform(w: { sampleRate: number; samples: Float32Array }): void;
}
interface SherpaRecognizer {
  createStream(): SherpaStream;
  decodeAsync(stream: SherpaStream): Promise<SherpaRawResult>;
}
interface SherpaModule {
  OfflineRecognizer: { createAsync(config: unknown): Promise<SherpaRecognizer> };
}

// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);
let sherpa: SherpaModule | undefined;

/**
 * Shortest clip handed to sherpa-onnx: its LFR step computes (frames − 7) / 6 + 1 output frames
 * (ApplyLFR in offline-recognizer-{sense-voice,paraformer}-impl.h), negative for clips under ~70 ms.
 * Short clips are padded with silence, as a recording's tail would be.
 */
export const MIN_SHERPA_SAMPLES = Math.round(0.25 * SAMPLE_RATE);

/** A sherpa-onnx offline model, warm. */
export class SherpaOfflineEngine implements AsrEngine {
  readonly kind = 'local';
  private readonly opts: SherpaOfflineOptions;
  private readonly family: SherpaFamilyDef;
  private recognizer: Promise<SherpaRecognizer> | undefined;
  private variant: string | undefined;
  private loads = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: SherpaOfflineOptions) {
    this.opts = opts;
    this.family = SHERPA_FAMILIES[opts.family];
  }

  private get tokensPath(): string {
    return this.opts.tokensPath ?? path.join(path.dirname(this.opts.modelPath), 'tokens.txt');
  }

  status(): SherpaEngineStatus {
    return { loaded: this.recognizer !== undefined, loads: this.loads, variant: this.variant };
  }

  /** Validates the model files; throws AsrError model-missing / model-invalid. */
  checkModel(): void {
    checkSherpaModel(this.family.spec, this.opts.modelPath, this.tokensPath);
  }

  /** Builds the recognizer for `language` (what the next calls will ask for; default auto). */
  async warmUp(opts: { readonly language?: string } = {}): Promise<void> {
    await this.serial(() => this.ensure(this.family.recognizerKey(opts.language ?? 'auto')));
  }

  transcribe(pcm: Float32Array, opts: TranscribeOptions = {}): Promise<AsrResult> {
    return this.serial(() => this.run(pcm, opts));
  }

  async dispose(): Promise<void> {
    await this.queue.catch(() => undefined);
    // The native recognizer is freed by its finalizer once unreferenced; the next call reloads.
    this.recognizer = undefined;
    this.variant = undefined;
  }

  /** Calls run one at a time: the recognizer is single-stream and the CPU is better spent on one clip. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The recognizer for `variant`, loading it when absent or built for another one. Returns load ms. */
  private async ensure(variant: string): Promise<number> {
    if (this.recognizer !== undefined && this.variant === variant) return 0;
    this.checkModel();
    const t0 = performance.now();
    this.recognizer = undefined;
    this.variant = undefined;
    try {
      sherpa ??= nodeRequire('sherpa-onnx-node') as SherpaModule;
    } catch (err) {
      throw new AsrError('engine-not-built', `sherpa-onnx-node cannot be loaded: ${(err as Error).message}`, { cause: err });
    }
    const threads = threadCount(this.opts.threads);
    const config = {
      featConfig: { sampleRate: SAMPLE_RATE, featureDim: 80 },
      modelConfig: {
        ...this.family.modelConfig(this.opts.modelPath, variant, this.opts.itn !== false),
        tokens: this.tokensPath,
        numThreads: threads,
        provider: 'cpu',
        debug: 0,
      },
      decodingMethod: 'greedy_search', // the only one either supports (offline-recognizer-*-impl.h)
    };
    const loading = sherpa.OfflineRecognizer.createAsync(config);
    try {
      await loading;
    } catch (err) {
      throw new AsrError('model-invalid', `sherpa-onnx could not load ${this.opts.modelPath}: ${(err as Error).message}`, { cause: err });
    }
    this.recognizer = loading;
    this.variant = variant;
    this.loads++;
    return performance.now() - t0;
  }

  private async run(input: Float32Array, opts: TranscribeOptions): Promise<AsrResult> {
    const t0 = performance.now();
    if (opts.signal?.aborted) throw new AsrError('cancelled', 'transcription cancelled');
    const loadMs = await this.ensure(this.family.recognizerKey(opts.language));
    const recognizer = await (this.recognizer as Promise<SherpaRecognizer>);
    const t1 = performance.now();
    const pcm = input.length >= MIN_SHERPA_SAMPLES ? input : padded(input, MIN_SHERPA_SAMPLES);
    let raw: SherpaRawResult;
    try {
      const stream = recognizer.createStream();
      stream.acceptWaveform({ sampleRate: SAMPLE_RATE, samples: pcm });
      raw = await recognizer.decodeAsync(stream);
    } catch (err) {
      throw new AsrError('engine-failed', `sherpa-onnx failed to decode: ${(err as Error).message}`, { cause: err });
    }
    if (opts.signal?.aborted) throw new AsrError('cancelled', 'transcription cancelled');
    const t2 = performance.now();
    const text = this.family.text(raw);
    const segments = toSegments(text, raw.timestamps ?? [], (input.length / SAMPLE_RATE) * 1000);
    for (const s of segments) opts.onSegment?.(s);
    return {
      text,
      segments,
      language: this.family.language(raw, opts.language),
      timings: { loadMs, transcribeMs: t2 - t1, totalMs: performance.now() - t0 },
      engine: 'local',
    };
  }
}

function padded(pcm: Float32Array, min: number): Float32Array {
  const out = new Float32Array(min);
  out.set(pcm);
  return out;
}

/**
 * One text per clip and, where the model gives them, a time per token (seconds; SenseVoice: 10 ms frames
 * × lfr_window_shift, ConvertSenseVoiceResult; Paraformer only with us_cif_peak): one segment from the
 * first token to the end of the last, or the whole clip.
 */
function toSegments(text: string, timestamps: readonly number[], durationMs: number): AsrSegment[] {
  if (text === '') return [];
  const first = timestamps[0];
  const last = timestamps[timestamps.length - 1];
  const startMs = first !== undefined ? Math.min(durationMs, Math.round(first * 1000)) : 0;
  const endMs = last !== undefined ? Math.min(durationMs, Math.round(last * 1000) + 60) : durationMs;
  return [{ startMs, endMs: Math.max(startMs, endMs), text }];
}
