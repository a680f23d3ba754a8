import type { HistoryHealth } from './store-types.ts';

/** Longest wait between attempts to write records kept in memory. */
const RETRY_MAX_MS = 60_000;

/**
 * Whether the history can be written right now, and the retry timer while it cannot: entering the
 * degraded state is reported once (and to listeners on every change, so the pending count stays
 * current); leaving it once. The retry waits double from `retryMs` up to a minute.
 */
export class StoreHealth {
  private now: HistoryHealth | null;
  private readonly listeners = new Set<(h: HistoryHealth | null) => void>();
  private readonly base: number;
  private delay: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly warn: (m: string) => void;
  private readonly clock: () => Date;

  /** Starts as `initial` (the state `open` found). */
  constructor(initial: HistoryHealth | null, opts: { readonly retryMs: number; readonly warn: (m: string) => void; readonly now: () => Date }) {
    this.now = initial;
    this.base = opts.retryMs;
    this.delay = opts.retryMs;
    this.warn = opts.warn;
    this.clock = opts.now;
  }

  /** Null when writes work; otherwise why not and how many records wait. */
  get current(): HistoryHealth | null {
    return this.now;
  }

  /** Subscribes to changes; returns an unsubscribe function. */
  subscribe(listener: (h: HistoryHealth | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A write failed: degraded (reported the first time), with `pending` records waiting. */
  degrade(state: HistoryHealth['state'], reason: string, pending: number): void {
    const was = this.now;
    this.now = { state, reason, pending, since: was?.since ?? this.clock().toISOString() };
    if (was === null) this.warn(`history: cannot write (${reason}); new records are kept in memory until the disk accepts them`);
    this.emit();
  }

  /** A write worked: healthy again (reported when it was not), and the retry stops. */
  recovered(): void {
    this.delay = this.base;
    this.cancelRetry();
    if (this.now === null) return;
    this.warn(`history: writing again (was: ${this.now.reason}); records kept in memory are saved`);
    this.now = null;
    this.emit();
  }

  /** Runs `attempt` later (once; a pending retry is kept), each time waiting twice as long, up to a minute. */
  scheduleRetry(attempt: () => void): void {
    if (this.timer !== null) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, RETRY_MAX_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      attempt();
    }, wait);
    // Must not keep a CLI or test process alive.
    this.timer.unref?.();
  }

  /** Stops a scheduled retry (closing). */
  cancelRetry(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private emit(): void {
    for (const l of this.listeners) {
      try {
        l(this.now);
      } catch (err) {
        this.warn(`history: health listener failed: ${(err as Error).message}`);
      }
    }
  }
}
