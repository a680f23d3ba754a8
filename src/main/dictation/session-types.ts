/**
 * Types of the pure dictation session machine: its states, the events that drive it and the effects
 * it asks the controller to run. Plain data only, so every transition can be tested as a table.
 */
import type { DictationState } from '../../shared/ipc/dictation-types.ts';
import type { Notice, NoticeLevel } from '../../shared/notices/notice.ts';
import type { TextRulesReport } from '../../shared/history/record.ts';
import type { EnhanceOutcome } from '../ports/enhance-outcome.ts';

/** Per-step time limits in ms (0 = no limit). */
export interface StepTimeouts {
  /** Max recording length: reaching it stops and transcribes, like a key-up. */
  readonly recording: number;
  readonly transcribing: number;
  /** Guard above the enhancer's own deadline: reaching it delivers the raw text. */
  readonly enhancing: number;
  /** An unanswered preview is cancelled (and journaled, so it can be reopened). */
  readonly preview: number;
  /** A paste that never reports back: the text stays on the clipboard. */
  readonly output: number;
}

/** Settings a session snapshots when it starts (a config change never alters a running session). */
export interface SessionOptions {
  readonly preview: boolean;
  readonly enhance: boolean;
  readonly method: 'paste' | 'copy';
  readonly timeouts: StepTimeouts;
  /**
   * Direct mode (`preview` off) only: when ASR or the LLM fails, open the panel anyway (with the best
   * text there is and a Retry button) instead of pasting the raw text / showing only a notice.
   */
  readonly previewOnFailure?: boolean;
}

/** How a session was started: hold-to-talk ends on key-up, toggle on the next press. */
export type Trigger = 'hold' | 'toggle';

/** Identity and settings of one session. */
export interface Session {
  readonly id: string;
  readonly mode: string;
  readonly trigger: Trigger;
  readonly options: SessionOptions;
  readonly source: 'voice' | 'clipboard';
}

/** What ASR produced (or the selected text, for clipboard sessions). */
export interface AsrOutcome {
  /** The text the rest of the dictation works on: as recognized, then through the text rules. */
  readonly text: string;
  /** The text as recognized, when the text rules changed it (the record's `asr_text`). */
  readonly recognized?: string;
  /** What the text rules removed and fired (absent when nothing). */
  readonly textRules?: TextRulesReport;
  readonly language: string;
  readonly sttModel: string;
  /** Seconds of audio (0 for clipboard text). */
  readonly duration: number;
}

export type { EnhanceOutcome };

/** The machine's state. Each non-idle state carries everything later steps need. */
export type MachineState =
  | { readonly state: 'idle' }
  | { readonly state: 'recording'; readonly s: Session }
  | { readonly state: 'transcribing'; readonly s: Session }
  | { readonly state: 'enhancing'; readonly s: Session; readonly asr: AsrOutcome }
  | { readonly state: 'preview'; readonly s: Session; readonly asr: AsrOutcome; readonly enh: EnhanceOutcome }
  | {
      readonly state: 'output';
      readonly s: Session;
      readonly asr: AsrOutcome;
      readonly enh: EnhanceOutcome;
      readonly text: string;
      readonly action: 'paste' | 'copy';
      readonly confirmed: boolean;
    };

/** A new session's identity, chosen by the controller (ids, mode and settings are I/O). */
export interface NewSession {
  readonly id: string;
  readonly mode: string;
  readonly options: SessionOptions;
}

/** Everything that can happen to a session. `id` on async results lets stale answers be ignored. */
export type MachineEvent =
  | { readonly type: 'press'; readonly trigger: Trigger; readonly next: NewSession }
  | { readonly type: 'release' }
  | { readonly type: 'cancel' }
  | { readonly type: 'restart'; readonly next: NewSession }
  /** `rule`: an app rule chose it (its label, for the notice), with the output `method` it may set. */
  | { readonly type: 'mode'; readonly mode: string; readonly rule?: string; readonly label?: string; readonly method?: 'paste' | 'copy' }
  | { readonly type: 'asr-done'; readonly id: string; readonly asr: AsrOutcome }
  | { readonly type: 'asr-silent'; readonly id: string; readonly reason: string }
  /** `missingModel`: the local engine has no model installed (the user is sent to Settings › Speech). */
  | { readonly type: 'asr-failed'; readonly id: string; readonly error: string; readonly missingModel?: string }
  | { readonly type: 'enhance-done'; readonly id: string; readonly result: EnhanceOutcome }
  | { readonly type: 'confirm'; readonly id: string; readonly text: string; readonly action: 'paste' | 'copy' }
  /** `notice` says why a failed delivery failed (default: a paste failure without details). */
  | { readonly type: 'output-done'; readonly id: string; readonly ok: boolean; readonly notice?: Notice }
  | { readonly type: 'timeout'; readonly id: string; readonly step: DictationState }
  /** Transcribe journaled audio again (retry from the menu, or a recovered crash). */
  | { readonly type: 'retry'; readonly next: NewSession }
  /** Run text that needs no ASR through the rest of the pipeline (selected text, a recovered transcript). */
  | { readonly type: 'text'; readonly next: NewSession; readonly asr: AsrOutcome; readonly source: 'voice' | 'clipboard' };

/** The record a finished session logs (the controller adds ids, timestamps and vocabulary outcomes). */
export interface LogIntent {
  readonly asr: AsrOutcome;
  readonly enh: EnhanceOutcome;
  readonly finalText: string;
  readonly previewEnabled: boolean;
  readonly outcome: 'confirmed' | 'copied' | 'direct' | 'cancelled';
  readonly source: 'voice' | 'clipboard';
}

/** Work the controller performs for a transition, in order. */
export type Effect =
  | { readonly kind: 'capture-start'; readonly id: string }
  /** Stop the microphone stream and drop the audio; `journal` keeps it as a cancelled session. */
  | { readonly kind: 'capture-discard'; readonly id: string; readonly journal: boolean }
  /** Stop capture (or read the journal), check silence, journal, then ASR → asr-done/silent/failed. */
  | { readonly kind: 'transcribe'; readonly id: string; readonly from: 'capture' | 'journal' }
  | { readonly kind: 'enhance'; readonly id: string; readonly text: string; readonly mode: string; readonly enabled: boolean }
  /** Abort in-flight ASR/LLM work of a session (its results will be ignored anyway). */
  | { readonly kind: 'abort'; readonly id: string }
  | { readonly kind: 'panel'; readonly show: boolean }
  | { readonly kind: 'output'; readonly id: string; readonly text: string; readonly action: 'paste' | 'copy' }
  /**
   * Write the session's history record into its journal, durably (synchronously), before its text
   * reaches the target app: from then on a crash leaves the record to be logged at the next start,
   * never a session to redo. It follows `output` in the same transition: the output port does nothing
   * before its first await (OutputPort), so the write comes before the paste keystroke.
   */
  | { readonly kind: 'journal-record'; readonly id: string; readonly intent: LogIntent }
  /**
   * Log the session's record to history. Only once it is on disk is the journal settled: `finish` ends
   * the session's journal, `keep` keeps it (a cancelled session stays reopenable) without the record.
   */
  | { readonly kind: 'log'; readonly id: string; readonly intent: LogIntent; readonly settle: 'finish' | 'keep' }
  /** Persist the session's step (and transcript) next to its journaled audio. */
  | { readonly kind: 'journal-stage'; readonly id: string; readonly stage: DictationState; readonly asr: AsrOutcome | null }
  /** The session ended for good: its journal entry is done (kept per retention). */
  | { readonly kind: 'journal-finish'; readonly id: string }
  /** The session was cancelled: journal kept as cancelled so it can be reopened. */
  | { readonly kind: 'journal-cancel'; readonly id: string }
  | { readonly kind: 'timer'; readonly id: string; readonly step: DictationState; readonly ms: number }
  | { readonly kind: 'clear-timer' }
  | { readonly kind: 'notice'; readonly level: NoticeLevel; readonly notice: Notice }
  | { readonly kind: 'sound'; readonly which: 'start' | 'stop' }
  | { readonly kind: 'done'; readonly id: string; readonly outcome: 'pasted' | 'copied' | 'cancelled' | 'failed' | 'discarded' };

/** Result of one transition. */
export interface Transition {
  readonly next: MachineState;
  readonly effects: readonly Effect[];
}
