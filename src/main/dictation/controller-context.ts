/**
 * What the controller's effect runners (session-io.ts, enhance-step.ts, delivery.ts) share with it:
 * the ports, the journals, the in-flight aborts, and the few controller operations they call back
 * (dispatch a machine event, emit a UI event, update the panel's snapshot). Keeping this one small
 * interface lets each runner live in its own file without reaching into the controller's fields.
 */
import type { DictationEvent, DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import type { AudioJournal } from '../audio/journal.ts';
import type { InputContextInfo } from '../ports/input-context-port.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import type { ClockPort, DictationPorts, LiveAsr } from './ports.ts';
import type { SessionBuffer } from './session-buffer.ts';
import type { SessionJournal } from './session-journal.ts';
import type { MachineEvent } from './session-types.ts';

/** The controller as its effect runners see it. */
export interface ControllerContext {
  readonly ports: DictationPorts;
  readonly clock: ClockPort;
  readonly audioJournal: AudioJournal;
  readonly sessions: SessionJournal;
  /** In-flight ASR/LLM work by session id (the `abort` effect aborts it). */
  readonly aborts: Map<string, AbortController>;
  config(): Config;
  /** The mode of session `id` (the running session's, else the configured default). */
  modeOf(id: string): string;
  /** Feeds an event to the session machine (queued when called from inside an effect). */
  dispatch(e: MachineEvent): void;
  /** Sends an event to the UI port and the listeners. */
  emit(e: DictationEvent): void;
  /** Merges fields into what the panel shows. */
  patchSnapshot(fields: Partial<DictationSnapshot>): void;
  /** The panel's view of the running session now. */
  snapshot(): DictationSnapshot;
  /** Hands over the capture buffer of session `id` (null when it is not the current one). */
  takeBuffer(id: string): SessionBuffer | null;
  /** Hands over session `id`'s transcription-while-speaking (null when it has none). */
  takeLive(id: string): LiveAsr | null;
  /** The input context read at session `id`'s start (null when off, unsupported or not read). */
  inputContext(id: string): Promise<InputContextInfo | null>;
}

/** The readable message of anything thrown. */
export function errorText(err: unknown): string {
  return String((err as Error)?.message ?? err);
}

/**
 * Runs a crash-journal write that the dictation must not depend on: when the disk refuses it (read-only
 * folder, disk full) the dictation goes on — its text still reaches the user — and only its crash
 * safety is lost, which is logged. Returns false when the write failed.
 */
export function journalBestEffort(ports: Pick<DictationPorts, 'log'>, what: string, write: () => void): boolean {
  try {
    write();
    return true;
  } catch (err) {
    ports.log?.('warn', `${what} not written; the dictation goes on without it`, { error: errorText(err) });
    return false;
  }
}
