/*
 * The ASR engine contract. Engines take 16 kHz mono Float32 PCM (audio/ has already resampled, capped and
 * journaled it) and return text plus segments, the detected language and timings. Local whisper and remote
 * OpenAI-compatible APIs implement the same interface so the dictation controller does not care which runs.
 */

/** Options of one transcription. */
export interface TranscribeOptions {
  /** 'auto' or a language code (zh, en…). */
  readonly language?: string;
  /** Whisper initial prompt (built from vocabulary hotwords by buildInitialPrompt). */
  readonly prompt?: string;
  /** Sampling temperature (0 = greedy). */
  readonly temperature?: number;
  /** Aborting rejects the call with AsrError 'cancelled' (whisper itself cannot stop: its result is discarded). */
  readonly signal?: AbortSignal;
  /** Called per segment as soon as the engine has it (local engine only). */
  readonly onSegment?: (segment: AsrSegment) => void;
}

/** One timed piece of the transcript. */
export interface AsrSegment {
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
  /** Mean token probability where the engine reports it. */
  readonly confidence?: number;
}

/** Where the time went (ms). */
export interface AsrTimings {
  /** Model load, when this call had to load it (0 when warm). */
  readonly loadMs: number;
  readonly transcribeMs: number;
  readonly totalMs: number;
}

/** The result of a transcription. */
export interface AsrResult {
  readonly text: string;
  readonly segments: readonly AsrSegment[];
  /** Language the engine used or detected; undefined when it did not say. */
  readonly language: string | undefined;
  readonly timings: AsrTimings;
  readonly engine: 'local' | 'remote';
  /** Segments removed by the hallucination guard (for diagnostics). */
  readonly droppedSegments?: readonly AsrSegment[];
}

/** A speech-to-text engine. */
export interface AsrEngine {
  readonly kind: 'local' | 'remote';
  transcribe(pcm: Float32Array, opts?: TranscribeOptions): Promise<AsrResult>;
  /**
   * Loads the model ahead of the first call (engines with nothing to load have none). `language`: the one
   * the next calls will ask for, where the engine builds per language (SenseVoice), so it is loaded once.
   */
  warmUp?(opts?: { readonly language?: string }): Promise<void>;
  /** Frees the model / process; the engine can be used again afterwards (it reloads). */
  dispose(): Promise<void>;
}

/** Why a transcription failed; the UI maps each to a message. */
export type AsrErrorCode =
  | 'engine-not-built'
  | 'model-missing'
  | 'model-invalid'
  | 'engine-crashed'
  | 'engine-failed'
  | 'timeout'
  | 'cancelled'
  | 'auth'
  | 'too-large'
  | 'rate-limited'
  | 'server'
  | 'bad-response'
  | 'network'
  | 'bad-request';

/** A failed transcription with a code the UI understands and a message a person can act on. */
export class AsrError extends Error {
  readonly code: AsrErrorCode;
  /** True when trying again later may work (the journaled audio should be kept for it). */
  readonly retryable: boolean;
  /** HTTP status for remote errors. */
  readonly status: number | undefined;

  constructor(code: AsrErrorCode, message: string, opts: { retryable?: boolean; status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AsrError';
    this.code = code;
    this.retryable = opts.retryable ?? isRetryableCode(code);
    this.status = opts.status;
  }
}

/** Codes where a retry of the same audio can succeed. */
export function isRetryableCode(code: AsrErrorCode): boolean {
  switch (code) {
    case 'engine-crashed':
    case 'engine-failed':
    case 'timeout':
    case 'rate-limited':
    case 'server':
    case 'network':
    case 'bad-response':
      return true;
    case 'engine-not-built':
    case 'model-missing':
    case 'model-invalid':
    case 'cancelled':
    case 'auth':
    case 'too-large':
    case 'bad-request':
      return false;
    default: {
      const never: never = code;
      return never;
    }
  }
}

/** Joins segment texts the way whisper prints them (segments carry their own leading spaces). */
export function joinSegments(segments: readonly AsrSegment[]): string {
  return segments.map((s) => s.text).join('').trim();
}
