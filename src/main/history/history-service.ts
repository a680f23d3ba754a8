import { historyRecordSchema, newRecordId, recordKey, type HistoryRecord, type NewHistoryRecord, type RecordUpdate, type StoredRecord } from '../../shared/history/record.ts';
import type { HistoryMatchCount, HistoryPage, HistoryQuery, StatsQuery, UsageStats } from '../../shared/history/query.ts';
import type { HistoryIndex } from './index/history-index.ts';
import { HistoryPendingError, HistoryStore, type HistoryFileLabel, type HistoryHealth, type HistoryStoreOptions } from './store/history-store.ts';
import { ProblemLog, type HistoryProblem } from './history-problems.ts';
import { IndexKeeper } from './history-index-keeper.ts';
import type { RecentQuery } from './store/hot-cache.ts';
import { IndexMirror } from './index/index-apply.ts';
import type { FollowResult } from './index/index-follow.ts';
import { HistoryFollower, type FollowTiming } from './history-follow.ts';
import { archiveMonthOf } from './rotation/rotation.ts';
import { importWenziIndexed, type WenziImportOutcome } from './import-export/wenzi-import-indexed.ts';

/** Options of the service: the store's, plus the user's history switch (from config, passed by the caller). */
export interface HistoryServiceOptions extends HistoryStoreOptions {
  /** History on/off; a function so a config change applies to the next `log()`. */
  readonly enabled: boolean | (() => boolean);
  /** Wait for the start-up index check/rebuild inside `open` (CLI, tests) instead of running it in the background. */
  readonly rebuildInline?: boolean;
  /**
   * Follow other programs' edits of the history files while open (fs.watch + polling; default true).
   * Off for one-shot CLI commands, which catch up at open anyway. An object tunes the timing (tests).
   */
  readonly follow?: boolean | FollowTiming;
}

/**
 * Result of `log()`: `saved` is false when history is off (nothing was written anywhere) or when the
 * disk refused the record — then `pending` is true: it is kept in memory and written once the disk
 * accepts it (see `health`).
 */
export interface LogResult {
  readonly record: HistoryRecord;
  readonly saved: boolean;
  readonly pending?: boolean;
  /** Why a pending record could not be written (the OS error), and how many records wait. */
  readonly health?: HistoryHealth | null;
}

/** Where the index lives when the data folder cannot hold it (its home is history-index-keeper.ts). */
export { tempIndexPath } from './history-index-keeper.ts';

/**
 * History as the app uses it: the JSONL store (source of truth) plus the SQLite index kept in step.
 * An index failure is logged and marks the index stale (rebuilt from the JSONL); it never fails a write.
 * `open` never throws for the state of the disk: on a read-only folder the index is built in the OS
 * temp folder, and history files that cannot be read are reported (`problems`) while the rest is shown.
 */
export class HistoryService {
  readonly store: HistoryStore;
  /** Settles when the start-up check (and any rebuild) has finished. */
  readonly indexReady: Promise<void>;
  /** The SQLite index beside the store: opened, checked, rebuilt and mirrored by its keeper. */
  private readonly keeper: IndexKeeper;
  private readonly isEnabled: () => boolean;
  private readonly warn: (m: string) => void;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly mirror: IndexMirror;
  private readonly follow: HistoryFollower;
  private readonly followChanges: boolean;
  private readonly externalListeners = new Set<(r: FollowResult) => void>();
  private readonly problemLog: ProblemLog;
  private closed = false;

  private constructor(store: HistoryStore, opts: HistoryServiceOptions) {
    this.store = store;
    const enabled = opts.enabled;
    this.isEnabled = typeof enabled === 'function' ? enabled : () => enabled;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.problemLog = new ProblemLog(this.warn);
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.mirror = new IndexMirror((f) => store.pathOf(f));
    this.keeper = new IndexKeeper({ store, mirror: this.mirror, problemLog: this.problemLog, follow: () => this.follow, warn: this.warn });
    this.follow = new HistoryFollower(
      {
        dataDir: store.paths.dataDir,
        archivesDir: store.paths.archivesDir,
        usableIndex: () => this.keeper.usable(),
        whenIdle: (fn) => store.whenIdle(fn),
        changed: (r) => this.externalChanged(r),
        failed: (err) => this.keeper.followFailed(err),
      },
      typeof opts.follow === 'object' ? opts.follow : {},
    );
    this.followChanges = opts.follow !== false;
    store.onChange((e) => this.keeper.apply(e));
    this.indexReady = this.keeper.start().then(() => {
      if (this.followChanges && !this.closed) this.follow.start();
    });
  }

  /** Opens the store and the index, then checks the index against the JSONL files (rebuilding when needed). */
  static async open(opts: HistoryServiceOptions): Promise<HistoryService> {
    // The index tells the store which file holds a key (verified there; scanning is the fallback).
    const ref: { svc?: HistoryService } = {};
    const store = await HistoryStore.open({
      ...opts,
      locate: opts.locate ?? ((key) => ref.svc?.fileOfKey(key)),
      // Before the app rewrites a file, the index takes in what other programs appended to it.
      beforeRewrite: async () => ref.svc?.follow.syncLocked().catch((err: unknown) => ref.svc?.keeper.followFailed(err)),
    });
    const svc = new HistoryService(store, opts);
    ref.svc = svc;
    if (opts.rebuildInline) await svc.indexReady;
    return svc;
  }

  /** Whether the index is known to be behind the JSONL (a rebuild is due or running). */
  get indexStale(): boolean {
    return this.keeper.isStale;
  }

  /** Null when history is written normally; otherwise why not (read-only, disk full) and how many records wait in memory. */
  get health(): HistoryHealth | null {
    return this.store.health;
  }

  /** Subscribes to health changes; returns an unsubscribe function. */
  onHealth(listener: (h: HistoryHealth | null) => void): () => void {
    return this.store.onHealth(listener);
  }

  /** History that could not be read (files, lines too long), as found by the last check or rebuild. */
  get problems(): readonly HistoryProblem[] {
    return this.problemLog.all;
  }

  /** Subscribes to newly found problems; returns an unsubscribe function. */
  onProblems(listener: (p: readonly HistoryProblem[]) => void): () => void {
    return this.problemLog.subscribe(listener);
  }

  /** Logs a record when history is on; when off, returns it unsaved and writes nothing anywhere. */
  async log(input: NewHistoryRecord): Promise<LogResult> {
    if (!this.isEnabled()) {
      const now = this.now();
      const record = historyRecordSchema.parse({
        ...input,
        id: input.id ?? newRecordId(now.getTime(), this.random),
        timestamp: input.timestamp ?? now.toISOString(),
      });
      return { record, saved: false };
    }
    try {
      return { record: await this.store.log(input), saved: true };
    } catch (err) {
      // The disk refused it: kept in memory and written later; the dictation itself is not affected.
      if (err instanceof HistoryPendingError) return { record: err.record as HistoryRecord, saved: false, pending: true, health: this.store.health };
      throw err;
    }
  }

  /**
   * Whether record `key` (logged at `timestamp`) is in the history: waiting in memory, in the index, in
   * the active file, or in the archive its month would rotate it to. For the records a crash left in the
   * dictation journal, so a record written just before the crash is not written twice.
   */
  async has(key: string, timestamp?: string): Promise<boolean> {
    if (this.store.pendingRecords.some((r) => recordKey(r) === key)) return true;
    if (this.fileOfKey(key) !== undefined) return true;
    const files = ['active', ...(timestamp === undefined ? [] : [archiveMonthOf(timestamp)])];
    for (const file of files) {
      if ((await this.store.fileState(file)) === undefined) continue;
      if ((await this.store.readFile(file)).some((r) => recordKey(r) === key)) return true;
    }
    return false;
  }

  /** Edits a record (active or archived); null when unknown. */
  update(key: string, fields: RecordUpdate): Promise<StoredRecord | null> {
    return this.store.update(key, fields);
  }

  /** Deletes a record (active or archived); false when unknown. */
  delete(key: string): Promise<boolean> {
    return this.store.delete(key);
  }

  /** Context-injection records (seed rules) from the hot cache. */
  getRecent(q: RecentQuery): Promise<StoredRecord[]> {
    return this.store.getRecent(q);
  }

  /** A History Browser page; throws when the index is unavailable (callers show "indexing…"). */
  async query(q: HistoryQuery): Promise<HistoryPage> {
    await this.indexReady;
    return this.keeper.require().query(q);
  }

  /** Usage statistics from the index. */
  /**
   * The total, page count and facets of a query, apart from its rows: the History Browser shows a page
   * from `query({ ...q, count: false, facets: false })` at once and fills in "Page X / Y" from this.
   */
  async countMatches(q: HistoryQuery): Promise<HistoryMatchCount> {
    await this.indexReady;
    return this.keeper.require().countMatches(q);
  }

  async stats(q: StatsQuery): Promise<UsageStats> {
    await this.indexReady;
    return this.keeper.require().stats(q);
  }

  /** The open index (for the CLI and tests), or null while missing/rebuilding. */
  get indexOrNull(): HistoryIndex | null {
    return this.keeper.indexOrNull;
  }

  /** The file the index says holds `key` (a hint for the store), or undefined when unknown/unavailable. */
  fileOfKey(key: string): HistoryFileLabel | undefined {
    return this.keeper.fileOfKey(key);
  }

  /** Rebuilds the index from the JSONL files in a worker while writes go on (history-index-keeper.ts). */
  rebuildIndex(): Promise<void> {
    return this.keeper.rebuild();
  }

  /** Resolves once writes, background rotations and any index rebuild are finished. */
  async settled(): Promise<void> {
    await this.store.settled();
    await this.keeper.idle();
    await this.store.settled();
  }

  /**
   * Looks for other programs' changes to the history files now and takes them into the index (also
   * done on every start, on file-system events and by polling); what changed, or null.
   */
  syncExternal(): Promise<FollowResult | null> {
    return this.follow.syncNow();
  }

  /** Subscribes to other programs' changes taken into the index (the History Browser reloads); returns an unsubscribe function. */
  onExternalChange(listener: (r: FollowResult) => void): () => void {
    this.externalListeners.add(listener);
    return () => this.externalListeners.delete(listener);
  }

  /**
   * Imports a WenZi data folder (wenzi-import.ts) for the app and the CLI alike: a big import stops
   * mirroring into the index and rebuilds it in its worker afterwards, a small one is mirrored row by
   * row (the rule: wenzi-import-indexed.ts). The History window reloads once the index holds it.
   */
  async importWenzi(folder: string): Promise<WenziImportOutcome> {
    await this.indexReady;
    await this.keeper.idle();
    return importWenziIndexed(
      {
        store: this.store,
        indexedRecords: () => this.keeper.indexedCount(),
        pauseIndex: () => this.keeper.pause(),
        rebuildIndex: async () => {
          await this.rebuildIndex();
          this.announceReindexed();
        },
        catchUp: async () => {
          this.keeper.resume();
          await this.syncExternal().catch((err: unknown) => this.keeper.followFailed(err));
        },
      },
      folder,
    );
  }

  /** Tells the external-change listeners (the History window) that the index was rebuilt under them. */
  private announceReindexed(): void {
    const index = this.keeper.usable();
    if (index === null) return;
    // Only the listeners: the store's own caches saw the import as it was written.
    const r: FollowResult = { files: index.files(), records: index.count(), badLines: 0 };
    for (const l of this.externalListeners) {
      try {
        l(r);
      } catch (err) {
        this.warn(`history: external-change listener failed: ${(err as Error).message}`);
      }
    }
  }

  /** Waits for queued writes and closes the index. */
  async close(): Promise<void> {
    this.closed = true;
    await this.indexReady.catch(() => undefined);
    await this.follow.stop();
    await this.keeper.idle();
    await this.store.close();
    this.keeper.close();
  }

  /** Another program's changes are in the index: counts and the store's caches (the hot cache) forget. */
  private externalChanged(r: FollowResult): void {
    this.mirror.forget(...r.files);
    this.store.externalChange(r.files);
    if (r.badLines > 0) this.warn(`history: ${r.badLines} unreadable line(s) written by another program skipped`);
    for (const l of this.externalListeners) {
      try {
        l(r);
      } catch (err) {
        this.warn(`history: external-change listener failed: ${(err as Error).message}`);
      }
    }
  }
}
