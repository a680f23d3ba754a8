import {
  historyRecordSchema,
  newRecordId,
  recordKey,
  recordUpdateSchema,
  type HistoryRecord,
  type NewHistoryRecord,
  type RecordUpdate,
  type StoredRecord,
} from '../../../shared/history/record.ts';
import { HotCache, HOT_CACHE_SIZE, selectRecent, type RecentQuery } from './hot-cache.ts';
import type { HistoryLogger } from './jsonl-log.ts';
import type { HistoryPaths } from '../paths.ts';
import { PendingWrites } from './pending-writes.ts';
import { MAX_ACTIVE_RECORDS, ROTATE_MIN_BYTES, ROTATION_MAX_DEFER_MS, ROTATION_QUIET_MS } from '../rotation/rotation.ts';
import type { RotationResult } from '../rotation/rotation-run.ts';
import { RotationScheduler } from '../rotation/rotation-scheduler.ts';
import { fileStateOf, listFileLabels, pathOfLabel, readFileRecords } from './store-files.ts';
import { openStoreFiles } from './store-open.ts';
import { StoreRepair } from './store-repair.ts';
import { addPlaced, clearFiles, deleteMatching, deleteOnDisk, setAsideLines, updateOnDisk, type RewriteHost } from './store-rewrites.ts';
import {
  HistoryPendingError,
  type AppendSpan,
  type HistoryFileLabel,
  type HistoryHealth,
  type HistoryStoreOptions,
  type OpenReport,
  type RecordPlacement,
  type StoreEvent,
} from './store-types.ts';
import { WriteQueue } from './write-queue.ts';

export type { HistoryFileLabel, HistoryHealth, HistoryStoreOptions, OpenReport, RecordPlacement, StoreEvent } from './store-types.ts';
export { HistoryPendingError } from './store-types.ts';

/**
 * The JSONL history: the source of truth. One writer per data folder; all writes go through one queue
 * (write-queue.ts) and are fsynced before they resolve. The seed's rotation runs after `log()` in the
 * background (RotationScheduler), so `log()` never pays for rewriting the active file — not even after
 * a rotation failed (disk full): that is retried later, with backoff, by the scheduler. Edits, deletes
 * and imports (store-rewrites.ts) wait until no rotation is running, so they never rewrite a file a
 * rotation is working on. When the disk refuses a record (full, read-only) it is kept in memory
 * (pending-writes.ts) and written as soon as the disk accepts it again; `health` says so, and `open`
 * never throws for the state of the disk. This class wires those pieces and owns the events.
 */
export class HistoryStore {
  readonly paths: HistoryPaths;
  readonly openReport: OpenReport;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly warn: HistoryLogger;
  private readonly hot: HotCache;
  private readonly rotation: RotationScheduler;
  private readonly queue: WriteQueue;
  private readonly repair: StoreRepair;
  /** Every new record until it is on disk, and the health state while the disk refuses them. */
  private readonly writes: PendingWrites;
  private readonly rewriteHost: RewriteHost;
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private counter = 0;
  private lastKey: string | null = null;
  private readonly readOnly: boolean;
  /** Records the active file keeps (the seed's 20,000 unless a test shrinks it). */
  readonly maxActiveRecords: number;

  private constructor(opts: HistoryStoreOptions, paths: HistoryPaths, report: OpenReport, state: { tailClean: boolean; rotationPending: boolean }) {
    this.paths = paths;
    this.openReport = report;
    this.readOnly = opts.readOnly === true;
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.hot = new HotCache(opts.hotCacheSize ?? HOT_CACHE_SIZE);
    this.maxActiveRecords = opts.maxRecords ?? MAX_ACTIVE_RECORDS;
    const rotated = (r: RotationResult): void => this.afterRotation(r);
    this.rotation = new RotationScheduler({
      paths,
      maxRecords: this.maxActiveRecords,
      rotateMinBytes: opts.rotateMinBytes ?? ROTATE_MIN_BYTES,
      quietMs: opts.rotationQuietMs ?? ROTATION_QUIET_MS,
      maxDeferMs: opts.rotationMaxDeferMs ?? ROTATION_MAX_DEFER_MS,
      retryMs: opts.rotationRetryMs ?? 30_000,
      nowIso: () => this.now().toISOString(),
      warn: (m) => this.warn(m),
      locked: (fn) => this.queue.run(fn),
      repair: () => this.repair.beforeRewrite(),
      rotated,
      failed: () => this.repair.rotationFailed(),
    });
    this.queue = new WriteQueue(this.rotation);
    const { readOnly, now, warn, rotation } = this;
    this.repair = new StoreRepair({ paths, readOnly, now, warn, beforeRewrite: opts.beforeRewrite, rotation, rotated }, state);
    const appended = (record: HistoryRecord, span: AppendSpan): void => {
      this.lastKey = recordKey(record);
      this.counter++;
      this.emit({ type: 'appended', record, span });
    };
    const enqueue = (fn: () => Promise<void>): Promise<void> => this.queue.run(fn);
    this.writes = new PendingWrites({ paths, readOnly, now, warn: (m) => warn(m), enqueue, repair: this.repair, rotation, appended }, report.health, opts.writeRetryMs ?? 2000);
    this.rewriteHost = {
      paths,
      now: this.now,
      locateHint: opts.locate,
      hot: this.hot,
      rotation: this.rotation,
      changed: (e) => {
        this.counter++;
        if (e) this.emit(e);
      },
    };
  }

  /**
   * Opens (creating the folder), finishes an interrupted rotation, repairs a torn last line, sets aside
   * lines too long to read and removes temp files of crashed saves. Never throws for the state of the
   * disk: a read-only or full folder opens degraded (see `health`), and what could not be done is
   * retried later (the rotation by the scheduler, the tail before the next append).
   */
  static async open(opts: HistoryStoreOptions): Promise<HistoryStore> {
    const opened = await openStoreFiles(opts);
    const store = new HistoryStore(opts, opened.paths, opened.report, opened.state);
    // An unfinished rotation is completed in the background, never on the append path.
    if (opened.state.rotationPending && !store.readOnly) store.rotation.failedEarlier();
    if (opened.report.health) store.writes.scheduleRetry();
    return store;
  }

  /** Null when the history is written normally; otherwise why not, and how many records wait in memory. */
  get health(): HistoryHealth | null {
    return this.writes.current;
  }

  /** Subscribes to health changes (degraded ↔ healthy); returns an unsubscribe function. */
  onHealth(listener: (h: HistoryHealth | null) => void): () => void {
    return this.writes.onHealth(listener);
  }

  /** Records kept in memory because the disk refused them (oldest first). */
  get pendingRecords(): readonly StoredRecord[] {
    return this.writes.records;
  }

  /** Increases on every change (append, edit, delete, rotation, import): a cheap "anything new?" check. */
  get changeCounter(): number {
    return this.counter;
  }

  /** Key of the last record appended by this process, or null. */
  get lastAppendedKey(): string | null {
    return this.lastKey;
  }

  /** Rotations this store has committed since it was opened. */
  get rotationsCompleted(): number {
    return this.rotation.completed;
  }

  /** Subscribes to changes; returns an unsubscribe function. */
  onChange(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends one record (id and timestamp assigned when absent); resolves once it is fsynced and every
   * listener (the index) has seen it. The seed's rotation check then runs in the background. When the
   * disk refuses it (full, read-only), it rejects with HistoryPendingError: the record is kept in memory
   * and written, before any newer one, as soon as the disk accepts writes again.
   */
  log(input: NewHistoryRecord): Promise<HistoryRecord> {
    return this.queue.run(async () => {
      const now = this.now();
      const record = historyRecordSchema.parse({
        ...input,
        id: input.id ?? newRecordId(now.getTime(), this.random),
        timestamp: input.timestamp ?? now.toISOString(),
      });
      this.writes.add(record);
      this.hot.onAppend(record);
      try {
        await this.writes.flush();
      } catch (err) {
        throw new HistoryPendingError(record, err);
      }
      return record;
    });
  }

  /** Changes fields of a record (active or archived) and sets `edited_at`; null when the key is unknown. */
  update(key: string, fields: RecordUpdate): Promise<StoredRecord | null> {
    const changes = recordUpdateSchema.parse(fields);
    if (this.writes.holds(key)) return this.queue.run(async () => this.updatePending(key, changes));
    return this.enqueueRewrite(() => updateOnDisk(this.rewriteHost, key, changes));
  }

  /** Edits a record still held in memory (the disk refused it); it is written with the change. */
  private updatePending(key: string, changes: RecordUpdate): StoredRecord | null {
    const record = this.writes.update(key, changes);
    if (record === null) return null;
    this.hot.onUpdate(key, record);
    this.counter++;
    return record;
  }

  /** Deletes a record (active or archived); false when the key is unknown. */
  delete(key: string): Promise<boolean> {
    if (this.writes.holds(key)) {
      return this.queue.run(async () => {
        if (!this.writes.remove(key)) return false;
        this.hot.onDelete(new Set([key]));
        this.counter++;
        return true;
      });
    }
    return this.enqueueRewrite(() => deleteOnDisk(this.rewriteHost, key));
  }

  /** Deletes every record matching `predicate` in every file (retention, delete a day); returns how many. */
  deleteWhere(predicate: (r: StoredRecord) => boolean): Promise<number> {
    return this.enqueueRewrite(() => deleteMatching(this.rewriteHost, predicate));
  }

  /** Deletes all history (active file emptied, archives removed; the quarantine file is kept). */
  clear(): Promise<void> {
    return this.enqueueRewrite(() => clearFiles(this.rewriteHost));
  }

  /**
   * Adds existing records (import): archive targets are appended to their month files, active targets
   * are merged into the active file in timestamp order (the file is created when missing), then the
   * count check runs without the 4 MB guard, so the active file ends up with the newest `maxActiveRecords`.
   */
  addRecords(items: readonly RecordPlacement[]): Promise<number> {
    return this.enqueueRewrite(() => addPlaced(this.rewriteHost, items));
  }

  /** Recent preview-confirmed records of a mode (seed rules), oldest first; no disk access once the cache is warm. */
  async getRecent(q: RecentQuery): Promise<StoredRecord[]> {
    return selectRecent(await this.hot.ensure(this.paths.active), q);
  }

  /** Whether the hot cache is loaded. */
  get hotCacheWarm(): boolean {
    return this.hot.warm;
  }

  /** Labels of all history files that exist: `active` first, then archives in name order. */
  listFiles(): Promise<HistoryFileLabel[]> {
    return listFileLabels(this.paths);
  }

  /** Path of a file label. */
  pathOf(file: HistoryFileLabel): string {
    return pathOfLabel(this.paths, file);
  }

  /** All parseable records of one file, in file order (bad lines are reported through `warn`). */
  readFile(file: HistoryFileLabel): Promise<StoredRecord[]> {
    return readFileRecords(this.paths, file, this.warn);
  }

  /** Size, mtime and record count of a file, for the index's start-up check. */
  fileState(file: HistoryFileLabel): Promise<{ size: number; mtimeMs: number; count: number } | undefined> {
    return fileStateOf(this.paths, file);
  }

  /** Runs `fn` after every queued write (and is itself serialized), e.g. to read a consistent snapshot. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }

  /**
   * Runs the seed's rotation check now (as after a `log()`) and resolves when no rotation is running;
   * a rotation that failed earlier (full disk) is tried again now, not after its retry wait.
   */
  async rotateNow(): Promise<void> {
    await this.queue.run(async () => this.rotation.checkNow());
    await this.settled();
  }

  /** Resolves once queued writes and any background rotation (including coalesced re-checks) are done. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Resolves once queued writes and background rotations are done; pending retries stop (records still in memory are reported). */
  async close(): Promise<void> {
    await this.settled();
    this.rotation.dispose();
    this.writes.close();
  }

  /**
   * Sets aside (in the quarantine file) the lines of `file` too long to read, rewriting it without them;
   * returns how many. Queued like an edit.
   */
  setAsideOversized(file: HistoryFileLabel): Promise<number> {
    return this.enqueueRewrite(() => setAsideLines(this.rewriteHost, file));
  }

  /** Runs `fn` in the write queue once no rotation is running (the index following other programs' edits). */
  whenIdle<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.whenIdle(fn);
  }

  /** Another program changed these files (seen by the index's follower): caches forget what they held. */
  externalChange(files: readonly HistoryFileLabel[]): void {
    if (files.length === 0) return;
    if (files.includes('active')) {
      this.hot.invalidate();
      this.rotation.rewritten(null);
    }
    this.counter++;
  }

  /**
   * Queues a rewrite of whole files. It must not overlap a background rotation (which appends to archives
   * and copies the active file), so it runs only when none is in flight, after the repairs a rewrite needs.
   */
  private enqueueRewrite<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.whenIdle(fn, () => this.repair.beforeRewrite());
  }

  private emit(e: StoreEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.warn(`history: change listener failed: ${(err as Error).message}`);
      }
    }
  }

  private afterRotation(rotation: RotationResult): void {
    this.hot.invalidate();
    this.counter++;
    this.emit({ type: 'rotated', rotation });
  }
}
