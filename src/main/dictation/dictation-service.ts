import type { CaptureStatus, DictationModeWire, DictationPromptWire, DictationSnapshot, HotkeyStatusWire, RecoverableSession } from '../../shared/ipc/dictation-types.ts';

/**
 * What the capture window and the panel may do with dictation sessions: built by src/main/app/dictation-app.ts,
 * served by src/main/ipc/handlers/dictation.ts. Declared here, in the layer that offers it, so dictation never
 * imports ipc (docs/dev/ARCHITECTURE.md, "Dependency direction").
 */
export interface DictationIpcService {
  frames(sessionId: string, seq: number, sampleRate: number, pcm: Float32Array): void;
  captureStatus(status: CaptureStatus): void;
  snapshot(): DictationSnapshot;
  confirm(sessionId: string, text: string, action: 'paste' | 'copy'): void;
  cancel(sessionId: string): void;
  recoverable(): readonly RecoverableSession[];
  recover(id: string, action: 'finish' | 'discard'): void;
  /** Hotkey registration status (Settings shows failures and conflicts). */
  hotkeys(): HotkeyStatusWire;
  /** The modes the panel offers, in menu order. */
  modes(): readonly DictationModeWire[];
  /** Re-runs session `sessionId`'s enhancement in `mode` (ignored for another session). */
  setMode(sessionId: string, mode: string): void;
  /** The system prompt the enhancer builds for the session's transcript in `mode`. */
  prompt(sessionId: string, mode: string): Promise<DictationPromptWire>;
  /** Pastes or copies a reopened earlier preview (only when no dictation is under way); updates session `sessionId`'s record when the text changed. */
  deliver(text: string, action: 'paste' | 'copy', sessionId?: string): Promise<void>;
  /** Hides the panel when no dictation is under way (Esc on an idle panel). */
  hidePanel(): void;
  /** Panel Retry of a failed transcription or enhancement of session `sessionId`; false when there is nothing to retry. */
  retry(sessionId: string): boolean;
  /** The indicator's Retry: the last failed dictation again from its journaled audio; false when there is none. */
  retryLast(): boolean;
  /** Runs a record's transcript through `mode` into the preview panel (History Browser "Re-run in mode…"). */
  rerun(text: string, mode: string, sttModel?: string): void;
}
