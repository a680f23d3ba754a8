/**
 * The input context (ai_enhance.input_context) read at each dictation's key-down — the app being
 * dictated into is frontmost then — kept for the recent sessions so the enhancement and the history
 * record of each get theirs. A read that hangs (a stuck X server, a slow helper) gives up after
 * CONTEXT_TIMEOUT_MS: the session goes without.
 */
import type { InputContextInfo, InputContextPort } from '../ports/input-context-port.ts';
import { errorText } from './controller-context.ts';
import type { DictationPorts } from '../ports/dictation-ports.ts';
import { withTimeout } from '../../shared/with-timeout.ts';

/** Longest a key-down input-context read may take before the session goes without it. */
const CONTEXT_TIMEOUT_MS = 3000;
/** Sessions whose reads are kept (a reopened preview or a retry still finds its own). */
const KEPT = 16;

/** The input context of recent sessions. */
export class ContextReads {
  private readonly reads = new Map<string, Promise<InputContextInfo | null>>();
  private readonly port: InputContextPort | null | undefined;
  private readonly log: DictationPorts['log'];

  constructor(ports: Pick<DictationPorts, 'inputContext' | 'log'>) {
    this.port = ports.inputContext;
    this.log = ports.log;
  }

  /** Starts reading the frontmost app for session `id` at `level` (nothing when off or unsupported). */
  capture(id: string, level: 'off' | 'basic' | 'detailed'): void {
    const port = this.port;
    if (level === 'off' || !port) return;
    const read = port.capture(level).catch((err: unknown) => {
      this.log?.('warn', 'input context not read', { error: errorText(err) });
      return null;
    });
    this.reads.set(id, withTimeout(read, CONTEXT_TIMEOUT_MS, null));
    while (this.reads.size > KEPT) {
      const oldest = this.reads.keys().next().value;
      if (oldest === undefined) break;
      this.reads.delete(oldest);
    }
  }

  /** Session `id`'s input context (null when off, unsupported, not read or forgotten). */
  of(id: string): Promise<InputContextInfo | null> {
    return this.reads.get(id) ?? Promise.resolve(null);
  }
}
