/**
 * Wire shapes of a dictation session (main → panel/indicator events, capture commands) and of the
 * capture window's frames. Kept apart from wire-types.ts so the dictation feature owns one file.
 */
import type { TextRulesReport } from '../history/record.ts';
import type { Notice, NoticeLevel } from '../notices/notice.ts';

/** Where a dictation session is; `idle` means no session. Direct mode never enters `preview`. */
export type DictationState = 'idle' | 'recording' | 'transcribing' | 'enhancing' | 'preview' | 'output';

/** Every dictation state in pipeline order. */
export const DICTATION_STATES: readonly DictationState[] = ['idle', 'recording', 'transcribing', 'enhancing', 'preview', 'output'];

/** How the enhancement went: model text used, raw text after a failure, model text rejected by the guard, not enhanced. */
export type EnhanceStatusWire = 'enhanced' | 'fallback' | 'guarded' | 'off';

/** What a finished session did with its text. */
export type DictationOutcome = 'pasted' | 'copied' | 'cancelled' | 'failed' | 'discarded';

/** The session as the panel needs it right now (also the answer of `dictation:status`). */
export interface DictationSnapshot {
  readonly sessionId: string | null;
  readonly state: DictationState;
  readonly mode: string;
  readonly asrText: string;
  readonly enhancedText: string | null;
  /** The text that would be delivered now (enhanced, or raw on fallback). */
  readonly text: string;
  readonly enhanceStatus: EnhanceStatusWire | null;
  /** Readable reason when enhancement fell back to the raw text. */
  readonly enhanceReason: string | null;
  /** The model that enhanced the text ('' when none did). */
  readonly model: string;
  /** Tokens of the enhancement (cached = prompt tokens the provider served from its cache); null when no model answered. */
  readonly usage: TokenUsageWire | null;
  /** How long the enhancement took (ms); 0 for a result taken from this session's per-mode cache. */
  readonly elapsedMs: number | null;
  /** The model's thinking text (shown on demand); '' when it had none. */
  readonly thinking: string;
  /** True when this result came from this session's per-mode cache (no new model call). */
  readonly cached: boolean;
  /** What the text rules removed from the recognized text and which rules fired (the diff view lists them); null when nothing. */
  readonly textRules?: TextRulesReport | null;
}

/** Token counts of one enhancement, as providers report them. */
export interface TokenUsageWire {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cached_tokens: number;
}

/** A selectable enhancement mode (answer of `dictation:modes`), in menu order. */
export interface DictationModeWire {
  readonly id: string;
  readonly label: string;
}

/** The request the enhancer would send for a session's transcript in a mode (answer of `dictation:prompt`). */
export interface DictationPromptWire {
  readonly mode: string;
  /** The system message (mode prompt + context), or null when the mode sends none / enhancement is off. */
  readonly system: string | null;
  /** The user message (the transcript as sent). */
  readonly user: string | null;
}

/** Events of `dictation:event`, in the order they happen within a session. */
export type DictationEvent =
  | { readonly kind: 'state'; readonly sessionId: string | null; readonly state: DictationState; readonly previous: DictationState; readonly mode: string }
  | { readonly kind: 'level'; readonly sessionId: string; readonly level: number }
  /** While recording (asr.local.decode_while_speaking): the text decoded so far, every closed speech segment joined. */
  | { readonly kind: 'partial'; readonly sessionId: string; readonly text: string }
  | { readonly kind: 'asr'; readonly sessionId: string; readonly text: string; readonly language: string }
  | { readonly kind: 'delta'; readonly sessionId: string; readonly stream: 'answer' | 'thinking' | 'reset'; readonly text: string }
  | { readonly kind: 'result'; readonly sessionId: string; readonly snapshot: DictationSnapshot }
  /** Something the user should know, as a code the window translates (see shared/notices). */
  | { readonly kind: 'notice'; readonly sessionId: string | null; readonly level: NoticeLevel; readonly notice: Notice }
  | { readonly kind: 'done'; readonly sessionId: string; readonly outcome: DictationOutcome };

/** Commands main sends the hidden capture window over `capture:command`. */
export type CaptureCommand =
  /** Keep the microphone open (warm) with this device and pre-roll, so a key press records at once. */
  | { readonly action: 'configure'; readonly deviceId: string | null; readonly preRollMs: number }
  /**
   * Start streaming: the pre-roll buffer first, then live frames tagged with `sessionId`. `preRollMs`
   * overrides the configured pre-roll for this session (0 after a start sound, which must not be recorded).
   */
  | { readonly action: 'start'; readonly sessionId: string; readonly preRollMs?: number }
  /** Flush what is buffered and stop streaming (the mic stays warm). */
  | { readonly action: 'stop'; readonly sessionId: string }
  /** Release the microphone (e.g. the device went away, or the app quits). */
  | { readonly action: 'release' };

/** What the capture window reports over `capture:status`. */
export type CaptureStatus =
  | { readonly state: 'ready'; readonly sampleRate: number; readonly deviceLabel: string }
  | { readonly state: 'stopped'; readonly sessionId: string; readonly frames: number }
  | { readonly state: 'error'; readonly message: string };

/** One batch of PCM from the capture window (base64 little-endian Float32, mono). */
export interface CaptureFrames {
  readonly sessionId: string;
  /** Batch number within the session, from 0; main drops out-of-order or duplicate batches. */
  readonly seq: number;
  readonly sampleRate: number;
  readonly pcm: string;
}

/** A session a crash left behind, offered at the next start. */
export interface RecoverableSession {
  readonly id: string;
  readonly createdAt: string;
  /** The step it was in when the app stopped. */
  readonly stage: DictationState | 'cancelled';
  readonly durationSeconds: number;
  /** The transcript, when ASR had finished. */
  readonly asrText: string | null;
}

/** How the hotkeys are doing (answer of `dictation:hotkeys`, shown in Settings): never silent about failures. */
export interface HotkeyStatusWire {
  /** The global key hook (hold-to-talk, cancel/restart/mode keys): running, or failed with `hookError`. */
  readonly hook: 'running' | 'failed' | 'off';
  readonly hookError: string | null;
  /** The toggle shortcut, when one is wanted: registered, or the reason it is not. */
  readonly toggle: { readonly accelerator: string; readonly registered: boolean; readonly error: string | null } | null;
  /** Key names in the config that cannot be used, with the reason. */
  readonly problems: readonly string[];
}

/** Payload of `dictation:sound`: a window (the indicator) plays a start/stop sound at this volume (0–1). */
export interface DictationSound {
  readonly which: 'start' | 'stop';
  readonly volume: number;
}
