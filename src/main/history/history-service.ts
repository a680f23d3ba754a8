import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { historyRecordSchema, newRecordId, recordKey, type HistoryRecord, type NewHistoryRecord, type RecordUpdate, type StoredRecord } from '../../shared/history/record.ts';
import type { HistoryMatchCount, HistoryPage, HistoryQuery, StatsQuery, UsageStats } from '../../shared/history/query.ts';
import { DISK_FULL_ERROR, HistoryIndex, IndexUnusableError, removeIndexFiles } from './index/history-index.ts';
import { HistoryPendingError, HistoryStore, type HistoryFileLabel, type HistoryHealth, type HistoryStoreOptions, type StoreEvent } from './store/history-store.ts';
import { ProblemLog, type HistoryProblem } from './history-problems.ts';
import type { RecentQuery } from './store/hot-cache.ts';
import { IndexMirror } from './index/index-apply.ts';
import type { FollowResult } from './index/index-follow.ts';
import { HistoryFollower, type FollowTiming } from './history-follow.ts';
import { rebuildIndex } from './index/index-rebuild.ts';
import { checkIndexAgainstFiles } from './index/index-sync.ts';
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

/** Errors of a rebuild that mean the disk refused the new index (full, read-only), as the worker reports them. */
const DISK_REFUSED = new RegExp(`${DISK_FULL_ERROR.source}|EROFS|SQLITE_READONLY|SQLITE_CANTOPEN|SQLITE_IOERR`, 'i');

/** Where the index lives when the data folder cannot hold it (read-only): a folder per data folder in the OS temp dir. */
export function tempIndexPath(dataDir: string): string {
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `tingxie-index-${id}`, 'index.db');
}

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
  private index: HistoryIndex | null = null;
  private stale = false;
  private readonly isEnabled: () => boolean;
  private readonly warn: (m: string) => void;
  private readonly now: () => Date;
  private readonly random: () => number;
  private rebuilding: Promise<void> | null = null;
  /** Store events seen while a rebuild runs: applied to the new index after the swap. */
  private pendingEvents: StoreEvent[] | null = null;
  private readonly mirror: IndexMirror;
  private readonly follow: HistoryFollower;
  private readonly followChanges: boolean;
  private readonly externalListeners = new Set<(r: FollowResult) => void>();
  /** index.db, or a temp-folder index when the data folder is read-only. */
  private dbPath: string;
  private readonly problemLog: ProblemLog;
  private closed = false;

  private constructor(store: HistoryStore, opts: HistoryServiceOptions) {
    this.store = store;
    this.dbPath = store.health?.state === 'read-only' ? tempIndexPath(store.paths.dataDir) : store.paths.indexDb;
    const enabled = opts.enabled;
    this.isEnabled = typeof enabled === 'function' ? enabled : () => enabled;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.problemLog = new ProblemLog(this.warn);
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.mirror = new IndexMirror((f) => store.pathOf(f));
    this.follow = new HistoryFollower(
      {
        dataDir: store.paths.dataDir,
        archivesDir: store.paths.archivesDir,
        usableIndex: () => (this.stale || this.pendingEvents ? null : this.index),
        whenIdle: (fn) => store.whenIdle(fn),
        changed: (r) => this.externalChanged(r),
        failed: (err) => this.followFailed(err),
      },
      typeof opts.follow === 'object' ? opts.follow : {},
    );
    this.followChanges = opts.follow !== false;
    store.onChange((e) => this.applyToIndex(e));
    this.indexReady = this.startupCheck().then(() => {
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
      beforeRewrite: async () => ref.svc?.follow.syncLocked().catch((err: unknown) => ref.svc?.followFailed(err)),
    });
    const svc = new HistoryService(store, opts);
    ref.svc = svc;
    if (opts.rebuildInline) await svc.indexReady;
    return svc;
  }

  /** Whether the index is known to be behind the JSONL (a rebuild is due or running). */
  get indexStale(): boolean {
    return this.stale || this.index === null;
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
    return this.requireIndex().query(q);
  }

  /** Usage statistics from the index. */
  /**
   * The total, page count and facets of a query, apart from its rows: the History Browser shows a page
   * from `query({ ...q, count: false, facets: false })` at once and fills in "Page X / Y" from this.
   */
  async countMatches(q: HistoryQuery): Promise<HistoryMatchCount> {
    await this.indexReady;
    return this.requireIndex().countMatches(q);
  }

  async stats(q: StatsQuery): Promise<UsageStats> {
    await this.indexReady;
    return this.requireIndex().stats(q);
  }

  /** The open index (for the CLI and tests), or null while missing/rebuilding. */
  get indexOrNull(): HistoryIndex | null {
    return this.index;
  }

  /** The file the index says holds `key` (a hint for the store), or undefined when unknown/unavailable. */
  fileOfKey(key: string): HistoryFileLabel | undefined {
    if (!this.index || this.stale || this.pendingEvents) return undefined;
    try {
      return this.index.fileOfKey(key);
    } catch {
      return undefined;
    }
  }

  /**
   * Rebuilds the index from the JSONL files in a worker while writes go on: changes made meanwhile are
   * recorded and applied to the new index after the swap (with the queue held, so none slips between).
   */
  rebuildIndex(): Promise<void> {
    this.rebuilding ??= this.runRebuild().finally(() => {
      this.rebuilding = null;
    });
    return this.rebuilding;
  }

  /** Resolves once writes, background rotations and any index rebuild are finished. */
  async settled(): Promise<void> {
    await this.store.settled();
    await this.rebuilding;
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
    await this.rebuilding;
    return importWenziIndexed(
      {
        store: this.store,
        indexedRecords: () => (this.index === null || this.stale ? null : this.index.count()),
        pauseIndex: () => {
          this.stale = true;
          this.mirror.forget();
        },
        rebuildIndex: async () => {
          await this.rebuildIndex();
          this.announceReindexed();
        },
        catchUp: async () => {
          this.stale = false;
          await this.syncExternal().catch((err: unknown) => this.followFailed(err));
        },
      },
      folder,
    );
  }

  /** Tells the external-change listeners (the History window) that the index was rebuilt under them. */
  private announceReindexed(): void {
    if (this.stale || this.index === null) return;
    // Only the listeners: the store's own caches saw the import as it was written.
    const r: FollowResult = { files: this.index.files(), records: this.index.count(), badLines: 0 };
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
    await this.rebuilding;
    await this.store.close();
    this.closeIndex();
  }

  private async runRebuild(): Promise<void> {
    this.pendingEvents = [];
    try {
      let result;
      try {
        result = await rebuildIndex({ dataDir: this.store.paths.dataDir, dbPath: this.dbPath, beforeSwap: () => this.closeIndex() });
      } catch (err) {
        // No room (or no write access) for index.db next to the history: search still works from a
        // temporary index in the OS temp folder until the disk accepts writes again.
        if (this.dbPath !== this.store.paths.indexDb || !DISK_REFUSED.test((err as Error).message)) throw err;
        this.warn(`history: cannot write index.db (${(err as Error).message.split('\n')[0]}); using a temporary index`);
        this.giveBackIndexRoom(err);
        this.dbPath = tempIndexPath(this.store.paths.dataDir);
        result = await rebuildIndex({ dataDir: this.store.paths.dataDir, dbPath: this.dbPath, beforeSwap: () => this.closeIndex() });
      }
      this.problemLog.report(result.problems);
      const dbPath = this.dbPath;
      await this.store.exclusive(async () => {
        const index = HistoryIndex.open(dbPath);
        this.mirror.forget();
        const gap = await this.mirror.catchUp(index, this.pendingEvents ?? []);
        this.pendingEvents = null;
        this.index = index;
        this.stale = false;
        if (gap) this.follow.schedule();
      });
    } catch (err) {
      this.stale = true;
      this.warn(`history: index rebuild failed, search unavailable until the next start: ${(err as Error).message}`);
    } finally {
      this.pendingEvents = null;
    }
    await this.setAsideOversized();
  }

  /** Moves lines too long to read (found by a rebuild) out of their files, into the quarantine file. */
  private async setAsideOversized(): Promise<void> {
    if (this.store.health !== null) return; // nothing can be moved while the disk refuses writes
    const files = new Set(this.problemLog.all.flatMap((p) => (p.kind === 'oversized' ? [p.file] : [])));
    for (const file of files) {
      try {
        const n = await this.store.setAsideOversized(file);
        const index = this.index;
        // The records did not change, only the file's size: keep the start-up check from seeing it as stale.
        if (n > 0 && index && !this.stale) index.transaction(() => this.mirror.saveFileState(index, file));
      } catch (err) {
        this.warn(`history: could not set aside the long line(s) of ${file}: ${(err as Error).message}`);
      }
    }
  }

  /**
   * On a full disk, removes index.db and its WAL from the data folder when moving to a temporary index:
   * they are derived (rebuilt from the JSONL files at any time), and a WAL a killed process left behind
   * cannot be checkpointed without room — so until it goes, the history itself cannot save a record.
   */
  private giveBackIndexRoom(err: unknown): void {
    if (!DISK_FULL_ERROR.test((err as Error)?.message ?? String(err))) return;
    this.closeIndex();
    try {
      removeIndexFiles(this.store.paths.indexDb);
      this.warn('history: removed index.db from the full data folder (it is rebuilt when there is room)');
    } catch (e) {
      this.warn(`history: could not remove index.db from the full data folder: ${(e as Error).message}`);
    }
  }

  private requireIndex(): HistoryIndex {
    if (!this.index) throw new Error('history index unavailable (rebuilding or failed)');
    return this.index;
  }

  private closeIndex(): void {
    this.index?.close();
    this.index = null;
  }

  /** Opens and checks the index (rebuilding when needed); never rejects: a failure leaves search unavailable. */
  private async startupCheck(): Promise<void> {
    try {
      await this.openAndCheck();
    } catch (err) {
      this.closeIndex();
      this.stale = true;
      if (this.dbPath !== this.store.paths.indexDb) {
        this.warn(`history: index unavailable (${(err as Error).message})`);
        return;
      }
      // index.db cannot be opened where it is (a full or read-only disk): build one in the temp folder.
      this.warn(`history: index.db unusable (${(err as Error).message}); building a temporary index`);
      this.giveBackIndexRoom(err);
      this.dbPath = tempIndexPath(this.store.paths.dataDir);
      try {
        await this.openAndCheck();
      } catch (err2) {
        this.warn(`history: index unavailable (${(err2 as Error).message})`);
      }
    }
  }

  private async openAndCheck(): Promise<void> {
    const dbPath = this.dbPath;
    try {
      this.index = HistoryIndex.open(dbPath);
    } catch (err) {
      if (!(err instanceof IndexUnusableError) && dbPath === this.store.paths.indexDb) throw err;
      this.warn(`history: index unusable (${(err as Error).message}); rebuilding from the JSONL files`);
      removeIndexFiles(dbPath);
      await this.rebuildIndex();
      return;
    }
    const found: HistoryProblem[] = [];
    const check = await checkIndexAgainstFiles(this.index, this.store.paths.dataDir, found);
    this.problemLog.report(found);
    if (typeof check === 'string' && check !== 'ok') {
      this.warn(`history: index ${check}; rebuilding`);
      await this.rebuildIndex();
      return;
    }
    // Files changed while the app was closed (another program, an interrupted rotation): only those
    // files are read, an appended tail only from where the index stopped.
    await this.follow.syncNow();
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

  private followFailed(err: unknown): void {
    if (this.stale) return;
    this.stale = true;
    this.mirror.forget();
    this.warn(`history: could not take in other programs' changes, rebuilding the index: ${(err as Error).message}`);
    void this.indexReady.then(() => this.rebuildIndex());
  }

  /** Mirrors a store change into the index; failures mark it stale and schedule a rebuild. */
  private applyToIndex(e: StoreEvent): void {
    if (this.pendingEvents) {
      this.pendingEvents.push(e);
      return;
    }
    const index = this.index;
    if (!index || this.stale) return;
    try {
      // A gap: another program appended before this record; read its lines (after this write's queue slot).
      if (this.mirror.apply(index, e)) this.follow.schedule();
    } catch (err) {
      this.stale = true;
      this.mirror.forget();
      this.warn(`history: index update failed, rebuilding (the JSONL write is safe): ${(err as Error).message}`);
      void this.indexReady.then(() => this.rebuildIndex());
    }
  }
}
