/**
 * Every user-facing notice as a typed code with parameters, emitted by main's logic without any
 * language; the place that shows it (a renderer window, the tray, a dialog) turns it into words with
 * notice-text.ts. Technical reasons (an OS tool's error, a provider's message) travel as `reason` and
 * are shown in brackets, untranslated.
 */

/** Every notice code, in a stable order (tests iterate over it). */
export const NOTICE_CODES = [
  'busy',
  'mode-changed',
  'mode-by-rule',
  'max-recording',
  'nothing-recognized',
  'silence-discarded',
  'asr-failed',
  'speech-model-missing',
  'asr-timeout',
  'llm-fallback',
  'llm-guarded',
  'preview-timeout',
  'paste-failed',
  'paste-timeout',
  'copy-failed',
  'step-failed',
  'history-save-failed',
  'history-degraded',
  'history-unreadable',
  'vocabulary-degraded',
  'mode-invalid',
  'recovery-no-audio',
  'microphone-error',
  'select-first',
  'copy-selection-failed',
  'no-retry',
  'no-last-dictation',
  'mode-switch-failed',
  'setting-save-failed',
  'launch-at-login-failed',
  'permission-microphone',
  'permission-accessibility',
  'hook-unavailable',
  'toggle-failed',
  'key-problem',
] as const;

/** A notice code. */
export type NoticeCode = (typeof NOTICE_CODES)[number];

/** Why the global key hook is not running. `accessibility`: it failed to start on macOS (permission missing). */
export type HookFailureCause =
  | 'wayland'
  /** A Wayland session with XWayland: the hook runs but sees keys only while an X11 app has focus. */
  | 'wayland-partial'
  | 'no-display'
  | 'load-failed'
  | 'start-failed'
  | 'accessibility';

/** The roles a configured key can have (the words of hotkey problems). */
export type HotkeyRole = 'dictation key' | 'cancel key' | 'restart key' | 'previous-mode key' | 'next-mode key' | 'enhance-selection shortcut' | 'paste-last shortcut' | 'copy-last shortcut' | 'reopen-last shortcut';

/** What a provider refused, by kind, parsed from its error body (src/main/enhance/provider-error.ts). */
export type ProviderRefusalKind =
  | 'unknown-field' | 'bad-model' | 'auth' | 'quota' | 'rate-limit' | 'context-too-long' | 'bad-parameter' | 'server' | 'other';

/**
 * A provider's refusal in structured form, so each window can say it in its own language (notice-text.ts
 * `providerRefusalText`): the kind, the request field or model it named, and the provider's own message
 * (one line, at most 200 characters, secrets removed). The raw error body never travels here, only to the log.
 */
export interface ProviderRefusal {
  readonly kind: ProviderRefusalKind;
  /** The request field refused (`chat_template_kwargs`, `stream_options.include_usage`, `temperature`). */
  readonly field?: string;
  /** The model name refused. */
  readonly model?: string;
  readonly providerMessage: string;
}

/**
 * One piece of history a notice names, without words (src/main/history/history-problems.ts
 * `HistoryProblem`): a file that cannot be read (`reason`: the OS error), a line too long to read (set
 * aside), lines that are not valid UTF-8 (left in the file unchanged), or an entry of the archives folder
 * that is not read (a symbolic link, or a name that is not an archive's).
 */
export type UnreadHistory =
  | { readonly kind: 'unreadable'; readonly path: string; readonly reason: string }
  | { readonly kind: 'oversized'; readonly path: string; readonly line: number; readonly bytes: number }
  | { readonly kind: 'invalid-utf8'; readonly path: string; readonly lines: readonly number[] }
  | { readonly kind: 'skipped'; readonly path: string; readonly cause: 'symbolic-link' | 'not-an-archive-name' };

/** A notice: its code plus the parameters that code needs. */
export type Notice =
  /** A hotkey press while a dictation is still being processed. */
  | { readonly code: 'busy' }
  /** The mode was switched while recording. */
  | { readonly code: 'mode-changed'; readonly mode: string }
  /** An app rule chose the mode (`rule`: the rule's label or the app's name), shown as "微信 → 口语". */
  | { readonly code: 'mode-by-rule'; readonly rule: string; readonly mode: string; readonly label?: string }
  | { readonly code: 'max-recording' }
  | { readonly code: 'nothing-recognized' }
  /** The recording held no speech and was dropped. */
  | { readonly code: 'silence-discarded'; readonly reason: string }
  /** ASR failed; the audio is kept for a retry. */
  | { readonly code: 'asr-failed'; readonly reason: string }
  /** The local engine's model is not installed (at start, or a dictation's ASR found it missing; its audio is kept). */
  | { readonly code: 'speech-model-missing'; readonly model: string }
  | { readonly code: 'asr-timeout' }
  /** The LLM failed: the raw transcript is used. `refusal`: the provider refused the request, said in words of the UI language. */
  | { readonly code: 'llm-fallback'; readonly reason: string | null; readonly refusal?: ProviderRefusal | null }
  /** The LLM's answer was rejected by the guard: the raw transcript is used. */
  | { readonly code: 'llm-guarded'; readonly reason: string | null }
  | { readonly code: 'preview-timeout' }
  /** The paste keystroke (or re-focusing the target app) failed: the text is on the clipboard. */
  | { readonly code: 'paste-failed'; readonly reason: string | null; readonly app: string | null }
  /** The paste step never answered: the text is on the clipboard. */
  | { readonly code: 'paste-timeout' }
  /** The text could not even be put on the clipboard. */
  | { readonly code: 'copy-failed'; readonly reason: string }
  /** A dictation step threw (disk full…). */
  | { readonly code: 'step-failed'; readonly reason: string }
  | { readonly code: 'history-save-failed'; readonly reason: string }
  /**
   * The data folder does not take writes (read-only, disk full): history can be browsed, dictations still
   * paste, and their records wait in memory (`pending`) until the disk accepts them.
   */
  | { readonly code: 'history-degraded'; readonly state: 'read-only' | 'write-failed'; readonly reason: string; readonly pending: number }
  /** Some history could not be read, each piece named with what is wrong with it; everything else is shown. */
  | { readonly code: 'history-unreadable'; readonly problems: readonly UnreadHistory[] }
  /**
   * vocabulary.db could not be used as it was; dictation goes on. `repaired`: the damaged file was moved to
   * `copy` and the `salvaged` pairs that could be read are in a new file; `unavailable`: it could not be
   * opened or repaired, the pairs that could be read are used but changes are not saved; `read-only`: the
   * file (or its folder) cannot be written, the pairs are used but changes are not saved.
   */
  | { readonly code: 'vocabulary-degraded'; readonly state: 'repaired' | 'unavailable' | 'read-only'; readonly copy: string | null; readonly salvaged: number; readonly reason: string }
  /** The chosen mode's file is broken (`line`: where, when known): the built-in `fallback` mode is used instead. */
  | { readonly code: 'mode-invalid'; readonly file: string; readonly line: number | null; readonly reason: string; readonly fallback: string }
  | { readonly code: 'recovery-no-audio' }
  /** The capture window reported a microphone problem. */
  | { readonly code: 'microphone-error'; readonly reason: string }
  /** "Enhance selected text" found no selection. */
  | { readonly code: 'select-first' }
  | { readonly code: 'copy-selection-failed'; readonly reason: string }
  | { readonly code: 'no-retry' }
  | { readonly code: 'no-last-dictation' }
  | { readonly code: 'mode-switch-failed'; readonly reason: string }
  | { readonly code: 'setting-save-failed'; readonly reason: string }
  | { readonly code: 'launch-at-login-failed'; readonly reason: string }
  | { readonly code: 'permission-microphone' }
  | { readonly code: 'permission-accessibility' }
  /** Hold-to-talk is unavailable; `toggle` names the toggle shortcut that works meanwhile. */
  | { readonly code: 'hook-unavailable'; readonly cause: HookFailureCause; readonly reason: string | null; readonly toggle: string | null }
  /** The toggle shortcut could not be registered: another app owns it, or Electron refused the name. */
  | { readonly code: 'toggle-failed'; readonly accelerator: string; readonly cause: 'taken' | 'invalid'; readonly reason: string | null }
  /** A configured key name cannot be watched. */
  | { readonly code: 'key-problem'; readonly role: HotkeyRole; readonly key: string; readonly reason: string };

/** The notice of one code. */
export type NoticeOf<C extends NoticeCode> = Extract<Notice, { readonly code: C }>;

/** How urgent a notice is. */
export type NoticeLevel = 'info' | 'warning' | 'error';

// Compile-time check that NOTICE_CODES and the union name the same codes (both directions).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const codesMatch: Same<Notice['code'], NoticeCode> = true;
void codesMatch;
