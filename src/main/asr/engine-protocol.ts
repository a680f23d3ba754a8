import type { WhisperHparams } from './model-file.ts';
import type { SherpaFamily } from './sherpa-families.ts';

/*
 * Messages between the app and the ASR engine host process. The same protocol runs over Node's
 * child_process IPC (serialization 'advanced', so Float32Array crosses as is) and over Electron's
 * utilityProcess MessagePort (structured clone). Requests carry an id; replies echo it.
 */

/** Whisper parameters of one call (a subset of whisper_full_params that the app sets). */
export interface WhisperCallParams {
  readonly language: string;
  readonly initialPrompt?: string;
  readonly temperature: number;
  readonly threads: number;
  /** Encoder window in frames (0 or absent = the full 30 s); see audio-context.ts. */
  readonly audioCtx?: number;
}

/** A sherpa-onnx model to load instead of a whisper one (absent = whisper.cpp). */
export interface SherpaLoadParams {
  readonly family: SherpaFamily;
  /** SenseVoice's inverse text normalization (punctuation, digits); default on. */
  readonly itn?: boolean;
  /** The language the first recognizer is built for (SenseVoice builds one per language); default auto. */
  readonly language?: string;
  /** onnxruntime threads (asr.local.threads); absent or 0: from the CPU count. */
  readonly threads?: number;
}

/** App → host. */
export type HostRequest =
  | { readonly type: 'load'; readonly id: number; readonly modelPath: string; readonly sherpa?: SherpaLoadParams }
  | { readonly type: 'transcribe'; readonly id: number; readonly pcm: Float32Array; readonly params: WhisperCallParams }
  | { readonly type: 'shutdown'; readonly id: number };

/** A segment as the host sends it. */
export interface HostSegment {
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
  readonly language?: string;
  readonly confidence?: number;
}

/** Host → app. */
export type HostEvent =
  | { readonly type: 'ready'; readonly pid: number }
  | { readonly type: 'loaded'; readonly id: number; readonly loadMs: number; readonly hparams?: WhisperHparams; readonly alreadyLoaded: boolean }
  | { readonly type: 'segment'; readonly id: number; readonly segment: HostSegment }
  | { readonly type: 'result'; readonly id: number; readonly segments: readonly HostSegment[]; readonly transcribeMs: number }
  | { readonly type: 'error'; readonly id: number; readonly code: 'engine-not-built' | 'model-missing' | 'model-invalid' | 'engine-failed' | 'bad-request'; readonly message: string };

/** Narrowing check for messages from the host (it is our code, but a crash can leave garbage). */
export function isHostEvent(value: unknown): value is HostEvent {
  if (typeof value !== 'object' || value === null) return false;
  const t = (value as { type?: unknown }).type;
  return t === 'ready' || t === 'loaded' || t === 'segment' || t === 'result' || t === 'error';
}
