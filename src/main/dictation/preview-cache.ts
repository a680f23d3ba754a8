/**
 * Per-session, per-mode cache of enhancement results for the preview panel: switching back to a mode
 * this session already ran shows that answer again at once (marked cached) instead of paying for a
 * second model call. Only usable answers are kept — a fallback (timeout, provider error) is retried.
 * One session at a time: a new session id or a different transcript empties it (WenZi clears its cache
 * when the ASR text changes or new audio arrives).
 */
import type { TokenUsageWire } from '../../shared/ipc/dictation-types.ts';
import type { EnhanceOutcome } from './session-types.ts';

/** One cached enhancement with what the panel shows beside it. */
export interface CachedEnhancement {
  readonly result: EnhanceOutcome;
  readonly thinking: string;
  readonly usage: TokenUsageWire | null;
  readonly elapsedMs: number;
}

/** The cache of the current session. */
export class PreviewCache {
  private sessionId: string | null = null;
  private text = '';
  private readonly byMode = new Map<string, CachedEnhancement>();

  /** The cached result of `mode` for this session and transcript, if any. */
  get(sessionId: string, text: string, mode: string): CachedEnhancement | null {
    if (sessionId !== this.sessionId || text !== this.text) return null;
    return this.byMode.get(mode) ?? null;
  }

  /** Remembers a result (ignored unless the model's answer was used or flagged, i.e. not a failure). */
  put(sessionId: string, text: string, mode: string, entry: CachedEnhancement): void {
    if (entry.result.status !== 'enhanced' && entry.result.status !== 'guarded') return;
    if (sessionId !== this.sessionId || text !== this.text) {
      this.byMode.clear();
      this.sessionId = sessionId;
      this.text = text;
    }
    this.byMode.set(mode, entry);
  }

  /** Forgets everything (a session ended). */
  clear(): void {
    this.byMode.clear();
    this.sessionId = null;
    this.text = '';
  }
}
