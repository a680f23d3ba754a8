/**
 * What the dictation controller needs from the rest of the app, as small interfaces: the composition
 * root passes adapters over the real services (and Electron's clipboard/windows), tests and benchmarks
 * pass the same real services with a recording output sink. All ports live in this folder, the lowest
 * layer, so a service in any layer can implement one without an import running up
 * (docs/dev/ARCHITECTURE.md, "Dependency direction").
 */
import type { NewHistoryRecord, TextRulesReport } from '../../shared/history/record.ts';
import type { DictationEvent } from '../../shared/ipc/dictation-types.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import type { InputContextPort } from './input-context-port.ts';
import type { OutputPort } from './output-port.ts';
import type { EnhanceOutcome } from './enhance-outcome.ts';

/** Starting and stopping the microphone stream of the capture window. */
export interface CapturePort {
  /** Tells the capture window to stream (pre-roll first) for session `id`. */
  start(id: string): void;
  /** Asks the capture window to flush and stop; resolves once its last batch has arrived (or a short grace ran out). */
  stop(id: string): Promise<void>;
}

/** One transcription of prepared 16 kHz audio (journaling is done by the controller first). */
export interface AsrPort {
  transcribe(input: { readonly id: string; readonly pcm: Float32Array; readonly signal: AbortSignal }): Promise<{ readonly text: string; readonly language: string }>;
  /** Name of the model the next transcription uses (recorded as `stt_model`). */
  modelName(): string;
  /**
   * Starts the live transcription of session `id` (asr.local.decode_while_speaking); null when the
   * engine decodes at key-up only (remote, setting off, no VAD). `onText`: the text so far.
   */
  startLiveTranscription?(id: string, onText: (text: string) => void): LiveTranscription | null;
}

/**
 * The live transcription: the transcription that runs while its session is recorded (16 kHz samples
 * in, text at the end), so only the last chunk is left to decode at key-up.
 */
export interface LiveTranscription {
  push(pcm16k: Float32Array): void;
  /** The recording ended: whether speech was heard and the range of it to journal and decode. */
  end(): { readonly speech: boolean; readonly keptStart: number; readonly keptEnd: number };
  result(signal: AbortSignal): Promise<{ readonly text: string; readonly language: string; readonly chunks: number; readonly pendingAtEnd: number }>;
  cancel(): void;
}

/** The enhancer, reduced to one call. It never throws for a model problem (it falls back itself). */
export interface EnhancePort {
  enhance(input: {
    readonly text: string;
    readonly mode: string;
    readonly signal: AbortSignal;
    readonly onDelta: (stream: 'answer' | 'thinking' | 'reset', text: string) => void;
    /** The input context's prompt line (app name, at `detailed` window title and domain); sent in the prompt's dynamic tail. */
    readonly inputContext?: string;
  }): Promise<EnhanceOutcome>;
  /** The selectable modes in menu order (for previous/next mode keys). */
  modes(): readonly string[];
  /** Key-down: warm the mode's prompt prefix while the user speaks (optional; never awaited). */
  prewarm?(mode: string): void;
  /** A mode's label as its file names it (optional: the id stands in). */
  modeLabel?(id: string): string;
}

/** Where finished sessions go. */
export interface HistoryPort {
  /**
   * Logs a record; the answer names the stored record (so a reopened preview can update it). `pending`:
   * the disk refused it (read-only, full), it waits in memory; `health` then says why.
   */
  log(record: NewHistoryRecord): Promise<{
    readonly record: { readonly id?: string | undefined };
    readonly saved: boolean;
    readonly pending?: boolean;
    readonly health?: { readonly state: 'read-only' | 'write-failed'; readonly reason: string; readonly pending: number } | null;
  } | void>;
  /** Whether the history holds record `key` (logged at `timestamp`), on disk or waiting in memory (optional: absent = no). */
  has?(key: string, timestamp?: string): Promise<boolean>;
  /** Edits a logged record (sets `edited_at`); optional for sinks that cannot. */
  update?(key: string, fields: { readonly final_text: string; readonly user_corrected: boolean }): Promise<unknown>;
}

/** Per-model vocabulary hit/miss counting on confirmed text (optional). */
export interface VocabularyPort {
  recordOutcome(o: { asrText: string; enhancedText: string | null; finalText: string; asrModel: string; llmModel: string }): void;
}

/**
 * The text rules (src/main/text-rules/pipeline.ts) over the stored rules: the recognized text of a
 * dictation in `mode` → the text the LLM and the paste get, and what was removed and fired.
 */
export interface TextRulesPort {
  apply(text: string, mode: string): { readonly text: string; readonly report: TextRulesReport };
}

/** The UI side: session events to the windows, the panel's visibility, start/stop sounds. */
export interface UiPort {
  emit(event: DictationEvent): void;
  panel(show: boolean): void;
  sound(which: 'start' | 'stop'): void;
}

/** Timers and time (injectable so tests control them). */
export interface ClockPort {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Everything the controller is built from. */
export interface DictationPorts {
  readonly dataDir: string;
  readonly config: () => Config;
  readonly capture: CapturePort;
  readonly asr: AsrPort;
  readonly enhance: EnhancePort;
  readonly history: HistoryPort;
  readonly vocabulary?: VocabularyPort | null;
  /** Fillers, self-corrections, replacements and snippets on the recognized text (absent: the text as recognized). */
  readonly textRules?: TextRulesPort | null;
  /** Reads the frontmost app at key-down (ai_enhance.input_context); absent: no input context. */
  readonly inputContext?: InputContextPort | null;
  readonly output: OutputPort;
  readonly ui: UiPort;
  readonly clock?: ClockPort;
  readonly log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Readonly<Record<string, unknown>>) => void;
  /** Session ids (default: time-sortable random ids). */
  readonly newId?: () => string;
}
