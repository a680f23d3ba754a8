/**
 * The output port: how a finished dictation's text reaches the user. Declared here, below both the
 * dictation controller (which calls it) and src/main/platform (whose PasteService implements it), so no
 * import runs up the layers (docs/dev/ARCHITECTURE.md, convention 11).
 */
import type { Notice } from '../../shared/notices/notice.ts';

/** What a delivery did; a failure carries the notice that explains it (the text is on the clipboard). */
export interface DeliveryOutcome {
  readonly ok: boolean;
  readonly notice?: Notice;
}

/**
 * Hands the final text to the user: paste into the remembered app, or copy. Never throws. Does nothing
 * that reaches the user before its first await: the controller journals the session's record right
 * after calling it, in the same turn, and relies on that to have the record on disk before the paste.
 */
export interface OutputPort {
  /** `submit`: after a paste, the key that sends the message (an app rule's or output.submit_key); none when absent. */
  deliver(text: string, action: 'paste' | 'copy', submit?: 'enter' | 'shift+enter' | 'mod+enter'): Promise<DeliveryOutcome>;
}
