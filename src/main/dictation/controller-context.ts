/**
 * What the controller's effect runners (session-io.ts, enhance-step.ts, delivery.ts) share with it: the
 * ports, the journals, and the few things only the controller knows (the running session's mode, the
 * panel's view, the input context read at key-down, the recording to take over). The runners never
 * drive the session machine: each resolves to the machine event it produced, which the controller
 * dispatches. Keeping this one small interface lets each runner live in its own file without reaching
 * into the controller's fields.
 */
import type { DictationEvent, DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import type { InputContextInfo } from '../ports/input-context-port.ts';
import type { TakenRecording } from './current-recording.ts';
import type { ClockPort, DictationPorts } from '../ports/dictation-ports.ts';
import type { SessionJournals } from './session-journals.ts';

/** The controller as its effect runners see it. */
export interface ControllerContext {
  readonly ports: DictationPorts;
  readonly clock: ClockPort;
  /** The one writer of the session and audio journals. */
  readonly journals: SessionJournals;
  /** The mode of session `id` (the running session's, else the configured default). */
  modeOf(id: string): string;
  /** Sends an event to the UI port and the listeners. */
  emit(e: DictationEvent): void;
  /** Merges fields into what the panel shows; returns what it shows now. */
  show(fields: Partial<DictationSnapshot>): DictationSnapshot;
  /** The input context read at session `id`'s start (null when off, unsupported or not read). */
  inputContext(id: string): Promise<InputContextInfo | null>;
  /** The key pressed after session `id`'s paste (its app rule's, else output.submit_key); undefined for none. */
  submitKey(id: string): 'enter' | 'shift+enter' | 'mod+enter' | undefined;
  /** Hands over session `id`'s capture buffer and live transcription (current-recording.ts). */
  takeRecording(id: string): TakenRecording;
}

/** The readable message of anything thrown. */
export function errorText(err: unknown): string {
  return String((err as Error)?.message ?? err);
}
