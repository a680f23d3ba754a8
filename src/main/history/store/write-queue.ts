/**
 * The history store's one write queue: every write (append, edit, delete, import, the background
 * rotation's steps) runs in it, one at a time, in the order it was asked for. Work that rewrites whole
 * files also waits until no background rotation is in flight, because a rotation appends to archives
 * and copies the active file between its queued steps. Kept apart from the store so the ordering rules
 * live in one place.
 */

/** Returned by queued work that found a rotation running: retried once it is idle. */
const RETRY = Symbol('retry');

/** What the queue needs to know about the background rotation (RotationScheduler). */
export interface RotationGate {
  /** Resolves when no rotation is running. */
  idle(): Promise<void>;
  /** Whether a rotation is in flight right now. */
  readonly running: boolean;
}

/** A promise chain that serializes the store's writes; failures never block what follows. */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly rotation: RotationGate;

  constructor(rotation: RotationGate) {
    this.rotation = rotation;
  }

  /** Runs `fn` after everything queued so far (whether that succeeded or failed). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `fn` in the queue once no rotation is running, retrying after it ends when one started in
   * between; `prepare` (if any) runs first, inside the same turn of the queue.
   */
  async whenIdle<T>(fn: () => Promise<T>, prepare?: () => Promise<void>): Promise<T> {
    for (;;) {
      await this.rotation.idle();
      const r = await this.run(async () => {
        if (this.rotation.running) return RETRY;
        if (prepare) await prepare();
        return { value: await fn() };
      });
      if (r !== RETRY) return r.value;
    }
  }

  /** Resolves once queued writes and any background rotation (including coalesced re-checks) are done. */
  async settled(): Promise<void> {
    do {
      await this.tail.catch(() => undefined);
      await this.rotation.idle();
    } while (this.rotation.running);
    await this.tail.catch(() => undefined);
  }
}
