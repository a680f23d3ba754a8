/**
 * What the panel shows of the running session: the fields the steps fill in (transcript, result,
 * usage…), with the machine's session id, state and mode added when it is read.
 */
import type { DictationSnapshot } from '../../shared/ipc/dictation-types.ts';
import type { MachineState } from './session-types.ts';

/** The panel's view of the running session. */
export class PanelView {
  private last: DictationSnapshot;
  private readonly defaultMode: () => string;

  /** `defaultMode`: the mode shown when no session runs (the configured one). */
  constructor(defaultMode: () => string) {
    this.defaultMode = defaultMode;
    this.last = this.empty();
  }

  /** A new recording: nothing shown yet but its id. */
  open(id: string): void {
    this.last = { ...this.empty(), sessionId: id };
  }

  /** Merges fields into what the panel shows. */
  merge(fields: Partial<DictationSnapshot>): void {
    this.last = { ...this.last, ...fields };
  }

  /** What the panel shows in machine state `m`. */
  of(m: MachineState): DictationSnapshot {
    return m.state === 'idle' ? this.empty() : { ...this.last, sessionId: m.s.id, state: m.state, mode: m.s.mode };
  }

  private empty(): DictationSnapshot {
    return {
      sessionId: null, state: 'idle', mode: this.defaultMode(), asrText: '', enhancedText: null, text: '', enhanceStatus: null, enhanceReason: null,
      model: '', usage: null, elapsedMs: null, thinking: '', cached: false,
    };
  }
}
