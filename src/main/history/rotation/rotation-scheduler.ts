import { stat, statfs } from 'node:fs/promises';
import type { HistoryPaths } from '../paths.ts';
import { hasRoomToRotate, needsCountCheck } from './rotation.ts';
import type { RotationResult } from './rotation-run.ts';
import { abandonRotation, commitRotation, countRecords, finishRotation, prepareRotation, type PreparedRotation } from './rotation-snapshot.ts';

/** What the scheduler needs from the store. */
export interface RotationHost {
  readonly paths: HistoryPaths;
  readonly maxRecords: number;
  readonly rotateMinBytes: number;
  /**
   * How long the history must be quiet (no append) before a due rotation starts, in ms; 0 starts it at
   * once. A dictation is followed by seconds of quiet, so the rewrite of the active file runs in that gap
   * and never competes with an append's fsync; a steady stream still rotates after `maxDeferMs`.
   */
  readonly quietMs: number;
  /** Longest a due rotation waits for quiet, in ms. */
  readonly maxDeferMs: number;
  /** First wait before a failed rotation is tried again, in ms; doubles per failure up to 30 min. */
  readonly retryMs: number;
  nowIso(): string;
  warn(message: string): void;
  /** Runs `fn` inside the store's write queue (no append, rewrite or other rotation step runs meanwhile). */
  locked<T>(fn: () => Promise<T>): Promise<T>;
  /** Repairs a torn tail / finishes a pending recovery; called inside `locked`. */
  repair(): Promise<void>;
  /** Called inside `locked` right after the rename: invalidate caches, notify listeners. */
  rotated(result: RotationResult): void;
  /** A rotation failed midway: its intent must be recovered before the next rewrite (appends need not wait). */
  failed(): void;
}

/** Longest wait between attempts of a failing rotation. */
const RETRY_MAX_MS = 30 * 60_000;

/** Errors that mean "no room" (full disk, quota): the failure ends as soon as space is freed. */
const NO_ROOM_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** Free bytes of the file system holding `dir`, and the size of `file` (0 when missing). */
async function roomAndSize(dir: string, file: string): Promise<{ free: number; size: number }> {
  const fsStats = await statfs(dir);
  const size = await stat(file).then((st) => st.size, () => 0);
  return { free: fsStats.bavail * fsStats.bsize, size };
}

/**
 * Decides when the seed's rotation runs and runs it in the background, one at a time. `log()` only
 * calls `afterAppend` (no I/O: the size and count are tracked in memory); a rotation requested while
 * one is running is coalesced into a single re-check after it ends. A failed rotation (disk full) is
 * reported once and retried later with a growing wait; appends never wait for it. A rotation the full
 * disk stopped is retried sooner once room is back: an append that succeeds checks the free space
 * (one statfs) and starts the retry when the rotation fits. Without that, space freed by the user (or
 * by the index giving back its WAL at start-up) left the half-done rotation, its moving records in
 * both the archive and the active file, for the 30 s to 30 min backoff.
 */
export class RotationScheduler {
  private readonly host: RotationHost;
  /** Records in the active file, or null until counted (once per session, in the background). */
  private count: number | null = null;
  /** Bytes in the active file, or null when unknown (stat'ed by the next check). */
  private bytes: number | null = null;
  /** Successful appends so far; lets a background count account for appends that raced it. */
  private appendSeq = 0;
  /** Bumped whenever the active file is rewritten by something other than an append or a rotation. */
  private epoch = 0;
  private task: Promise<void> | null = null;
  private again = false;
  /** Set by `checkForced`: the next run skips the seed's 4 MB guard (consumed by that run). */
  private forced = false;
  private rotations = 0;
  /** The pending quiet-period timer, and when the first deferred request was made. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  private deferredSince: number | null = null;
  /** Failed attempts in a row, and when the next one may start. */
  private failures = 0;
  private retryAt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last failure was (or may have been) for lack of room: an append checks whether room is back. */
  private noRoom = false;
  /** A room check is running, or an early retry already ran since the last scheduled one (one per wait). */
  private roomChecked = false;

  /** A scheduler for one store. */
  constructor(host: RotationHost) {
    this.host = host;
  }

  /** Whether a rotation (or its check) is under way. */
  get running(): boolean {
    return this.task !== null;
  }

  /** Rotations committed by this scheduler. */
  get completed(): number {
    return this.rotations;
  }

  /** Resolves when no rotation is running or pending (a deferred check is started now). */
  async idle(): Promise<void> {
    if (this.timer !== null) this.runDeferred();
    while (this.task) await this.task;
  }

  /** Drops a deferred check and a scheduled retry (the store is closing). */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.deferredSince = null;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Rotations that failed in a row (0 once one succeeds). */
  get failedAttempts(): number {
    return this.failures;
  }

  /** A rotation was left unfinished before this scheduler existed (it failed at open): retry it later. */
  failedEarlier(): void {
    this.failures = Math.max(this.failures, 1);
    this.count = null;
    this.bytes = null;
    // Why it failed is not known here; a full disk is the usual cause at start-up, so room is worth checking.
    this.noRoom = true;
    this.scheduleRetry();
  }

  /** An explicit request (`rotateNow`, the CLI's `history rotate`): runs even while a failed rotation waits for its retry. */
  checkNow(): void {
    this.retryNow();
  }

  /** Drops the pending retry wait and runs the check now. */
  private retryNow(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = 0;
    this.check();
  }

  /** After an append while a rotation waits for room: retries it at once when the file system now has room for it. */
  private retryIfRoom(): void {
    if (!this.noRoom || this.roomChecked || this.retryTimer === null) return;
    this.roomChecked = true;
    roomAndSize(this.host.paths.dataDir, this.host.paths.active).then(
      ({ free, size }) => {
        if (this.retryTimer !== null && hasRoomToRotate(free, size)) this.retryNow();
        else this.roomChecked = false;
      },
      () => {
        // statfs unsupported or failing: the scheduled retry still comes.
      },
    );
  }

  private scheduleRetry(): void {
    const wait = Math.min(this.host.retryMs * 2 ** Math.max(0, this.failures - 1), RETRY_MAX_MS);
    this.retryAt = Date.now() + wait;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.retryAt = 0;
      this.roomChecked = false;
      this.check();
    }, wait);
    this.retryTimer.unref?.();
  }

  /** After a successful append of `bytes` bytes: track, and start a rotation when the seed's rule may apply. */
  afterAppend(bytes: number): void {
    this.appendSeq++;
    if (this.count !== null) this.count++;
    if (this.bytes !== null) this.bytes += bytes;
    if (this.failures > 0) this.retryIfRoom();
    this.defer();
  }

  /** Runs `check` once the history has been quiet for `quietMs` (at most `maxDeferMs` after the first request). */
  private defer(): void {
    if (this.host.quietMs <= 0 || !this.mayBeDue()) {
      this.check();
      return;
    }
    const now = Date.now();
    this.deferredSince ??= now;
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.host.quietMs, this.deferredSince + this.host.maxDeferMs - now));
    this.timer = setTimeout(() => this.runDeferred(), wait);
    // A pending check must not keep a CLI or test process alive; the next append or close runs it.
    this.timer.unref?.();
  }

  private runDeferred(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.deferredSince = null;
    this.check();
  }

  /** The seed's cheap pre-checks (no I/O): false when the file is known to be under 4 MB or ≤ 20,000 records. */
  private mayBeDue(): boolean {
    if (this.bytes !== null && !needsCountCheck(this.bytes, this.host.rotateMinBytes)) return false;
    return !(this.count !== null && this.count <= this.host.maxRecords);
  }

  /** The active file was rewritten (edit, delete, import, clear) or an append failed: `count` when known. */
  rewritten(count: number | null): void {
    this.epoch++;
    this.count = count;
    this.bytes = null;
  }

  /** The seed's check without I/O: skip under 4 MB or at ≤ 20,000 known records, else rotate in the background. */
  check(): void {
    // After a failure, nothing runs before the retry time (its timer calls check again).
    if (this.failures > 0 && Date.now() < this.retryAt) return;
    if (!this.mayBeDue() && this.failures === 0) return;
    if (this.task) {
      this.again = true;
      return;
    }
    this.task = this.loop().finally(() => {
      this.task = null;
    });
  }

  /**
   * The count check without the seed's 4 MB guard, for an import: whatever the file's size, the active
   * file must end up holding the newest `maxRecords` (import merges in timestamp order, so the oldest
   * excess is at its head, exactly what the rotation moves).
   */
  checkForced(): void {
    this.forced = true;
    if (this.failures > 0 && Date.now() < this.retryAt) return;
    if (this.task) {
      this.again = true;
      return;
    }
    this.task = this.loop().finally(() => {
      this.task = null;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const forced = this.forced;
      this.forced = false;
      try {
        await this.once(forced);
      } catch (err) {
        // The retry must still ignore the size guard, or an import could leave more than the limit active.
        if (forced) this.forced = true;
        // The appended records are durable; the unfinished rotation is completed from its intent later.
        this.count = null;
        this.bytes = null;
        this.failures++;
        this.noRoom = NO_ROOM_CODES.has((err as NodeJS.ErrnoException).code ?? '');
        this.host.failed();
        // Reported once per run of failures, not on every retry.
        if (this.failures === 1) this.host.warn(`history: rotation failed (${(err as Error).message}); appends go on, it is retried later`);
        this.scheduleRetry();
        return;
      }
      if (this.failures > 0) this.host.warn(`history: rotation done after ${this.failures} failed attempt(s)`);
      this.failures = 0;
      this.noRoom = false;
      this.roomChecked = false;
    } while (this.again);
  }

  private async once(forced: boolean): Promise<void> {
    const { paths, maxRecords } = this.host;
    const snap = await this.host.locked(async () => {
      await this.host.repair();
      let size = 0;
      try {
        size = (await stat(paths.active)).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      this.bytes = size;
      if (!forced && !needsCountCheck(size, this.host.rotateMinBytes)) return null;
      return { size, count: this.count, seq: this.appendSeq, epoch: this.epoch };
    });
    if (!snap) return;
    let count = snap.count;
    if (count === null) {
      count = await countRecords(paths.active, snap.size);
      if (this.epoch === snap.epoch && this.count === null) this.count = count + (this.appendSeq - snap.seq);
    }
    if (count <= maxRecords) return;
    const excess = count - maxRecords;
    let prep: PreparedRotation | null = null;
    // Set inside the locked commit; a holder object because TypeScript does not track closure writes.
    const held: { release?: () => Promise<void> } = {};
    try {
      prep = await prepareRotation(paths, snap.size, excess, this.host.nowIso());
      const prepared = prep;
      await this.host.locked(async () => {
        // Rewrites wait for the scheduler to be idle, so this would be a bug, not a race to tolerate.
        if (this.epoch !== snap.epoch) throw new Error('active file was rewritten during the rotation');
        const committed = await commitRotation(paths, prepared);
        this.bytes = committed.activeBytes;
        held.release = committed.release;
        if (this.count !== null) this.count -= excess;
        this.rotations++;
        this.host.rotated({ moves: prepared.moves.map(({ key, month }) => ({ key, month })), kept: this.count ?? count - excess });
      });
      prep = null;
      await held.release?.();
      await finishRotation(paths);
    } catch (err) {
      await held.release?.();
      await abandonRotation(paths, prep);
      throw err;
    }
  }
}
