import { endsWithoutNewline, repairTail, type HistoryLogger } from './jsonl-log.ts';
import type { HistoryPaths } from '../paths.ts';
import { recoverRotation, type RotationResult } from '../rotation/rotation-run.ts';
import type { RotationScheduler } from '../rotation/rotation-scheduler.ts';

/**
 * What the history store still has to repair before its next write, and the repairs themselves. A
 * failed append may leave a torn last line; a rotation that failed midway leaves its intent behind.
 * Both are repaired lazily: an append only needs the tail not to glue onto the new record, while a
 * rewrite (edit, delete, import, rotation) must not run over either. Kept apart so the append path
 * and the rewrite path share one record of that state.
 */

/** What the repairs need from the store. */
export interface RepairHost {
  readonly paths: HistoryPaths;
  readonly readOnly: boolean;
  readonly now: () => Date;
  readonly warn: HistoryLogger;
  /** Runs inside the write queue before any rewrite (HistoryStoreOptions.beforeRewrite). */
  readonly beforeRewrite: (() => Promise<unknown>) | undefined;
  /** Told that the active file changed under its count once an interrupted rotation is finished. */
  readonly rotation: Pick<RotationScheduler, 'rewritten'>;
  /** An interrupted rotation was finished here. */
  readonly rotated: (rotation: RotationResult) => void;
}

/** The torn-tail and interrupted-rotation state of the active file, with the repairs that clear it. */
export class StoreRepair {
  /** False after a failed append (the tail may be torn) until repaired. */
  private tailClean: boolean;
  /** True after a rotation failed midway: its intent must be recovered before a rewrite (appends need not wait). */
  private rotationPending: boolean;
  private readonly host: RepairHost;

  /** Starts from the state `open` left (see OpenedFiles.state). */
  constructor(host: RepairHost, state: { readonly tailClean: boolean; readonly rotationPending: boolean }) {
    this.host = host;
    this.tailClean = state.tailClean;
    this.rotationPending = state.rotationPending;
  }

  /** A rotation failed midway (its intent stays on disk). */
  rotationFailed(): void {
    this.rotationPending = true;
  }

  /** An append reached the disk whole: the tail ends with a newline. */
  appended(): void {
    this.tailClean = true;
  }

  /** An append failed: its undo may have failed too, so the tail may be torn. */
  appendFailed(): void {
    this.tailClean = false;
  }

  /**
   * Before an append: repair a torn tail when possible (quarantine + truncate). When that fails (the
   * quarantine copy needs room), returns '\n' if the file does not end with one, so the torn text stays
   * a line of its own (set aside by the next rewrite) instead of gluing onto the new record.
   */
  async beforeAppend(): Promise<string> {
    if (this.tailClean) return '';
    const { paths } = this.host;
    try {
      await repairTail(paths.active, paths.quarantine, 'active', this.host.now().toISOString());
      this.tailClean = true;
      return '';
    } catch {
      return (await endsWithoutNewline(paths.active)) ? '\n' : '';
    }
  }

  /**
   * Before a rewrite (edit, delete, import, rotation): finishes an interrupted rotation and repairs a
   * torn tail. A rewrite must not run over a half-done rotation; an append need not wait for this.
   */
  async beforeRewrite(): Promise<void> {
    const { paths } = this.host;
    if (this.host.readOnly) throw new Error('the history was opened read-only');
    const nowIso = this.host.now().toISOString();
    if (this.rotationPending) {
      const r = await recoverRotation(paths, nowIso, this.host.warn);
      this.rotationPending = false;
      this.host.rotation.rewritten(null);
      if (r) this.host.rotated(r);
    }
    if (!this.tailClean) {
      await repairTail(paths.active, paths.quarantine, 'active', nowIso);
      this.tailClean = true;
    }
    await this.host.beforeRewrite?.();
  }
}
