/**
 * The SQLite index's lifecycle beside the JSONL store (the source of truth): open and check it at start,
 * rebuild it in a worker while writes go on, mirror every store change into it, and move it to the OS
 * temp folder when the data folder cannot hold it (read-only, full). An index failure is logged and marks
 * the index stale (rebuilt from the JSONL); it never fails a write.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { DISK_FULL_ERROR, HistoryIndex, IndexUnusableError, removeIndexFiles } from './index/history-index.ts';
import type { IndexMirror } from './index/index-apply.ts';
import { rebuildIndex } from './index/index-rebuild.ts';
import { checkIndexAgainstFiles } from './index/index-sync.ts';
import type { HistoryFollower } from './history-follow.ts';
import type { HistoryProblem, ProblemLog } from './history-problems.ts';
import type { HistoryFileLabel, HistoryStore, StoreEvent } from './store/history-store.ts';

/** Errors of a rebuild that mean the disk refused the new index (full, read-only), as the worker reports them. */
const DISK_REFUSED = new RegExp(`${DISK_FULL_ERROR.source}|EROFS|SQLITE_READONLY|SQLITE_CANTOPEN|SQLITE_IOERR`, 'i');

/** Where the index lives when the data folder cannot hold it (read-only): a folder per data folder in the OS temp dir. */
export function tempIndexPath(dataDir: string): string {
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `tingxie-index-${id}`, 'index.db');
}

/** What the keeper works with; `follow` is a function because the follower is built after the keeper. */
export interface IndexKeeperDeps {
  readonly store: HistoryStore;
  readonly mirror: IndexMirror;
  readonly problemLog: ProblemLog;
  readonly follow: () => HistoryFollower;
  readonly warn: (m: string) => void;
}

export class IndexKeeper {
  private index: HistoryIndex | null = null;
  private stale = false;
  private rebuilding: Promise<void> | null = null;
  /** Store events seen while a rebuild runs: applied to the new index after the swap. */
  private pendingEvents: StoreEvent[] | null = null;
  /** index.db, or a temp-folder index when the data folder is read-only. */
  private dbPath: string;
  /** Settles when the start-up check (and any rebuild) has finished. */
  private ready: Promise<void> = Promise.resolve();
  private readonly d: IndexKeeperDeps;

  constructor(d: IndexKeeperDeps) {
    this.d = d;
    this.dbPath = d.store.health?.state === 'read-only' ? tempIndexPath(d.store.paths.dataDir) : d.store.paths.indexDb;
  }

  /** Opens and checks the index (rebuilding when needed); never rejects: a failure leaves search unavailable. */
  start(): Promise<void> {
    this.ready = this.startupCheck();
    return this.ready;
  }

  /** Whether the index is known to be behind the JSONL (a rebuild is due or running). */
  get isStale(): boolean {
    return this.stale || this.index === null;
  }

  /** The open index, or null while missing/rebuilding. */
  get indexOrNull(): HistoryIndex | null {
    return this.index;
  }

  /** The index when it is in step with the store (no rebuild recording events, not stale), else null. */
  usable(): HistoryIndex | null {
    return this.stale || this.pendingEvents ? null : this.index;
  }

  /** The records the index holds, or null when it is not in step. */
  indexedCount(): number | null {
    return this.index === null || this.stale ? null : this.index.count();
  }

  /** The index, or an error the History window shows as "indexing…". */
  require(): HistoryIndex {
    if (!this.index) throw new Error('history index unavailable (rebuilding or failed)');
    return this.index;
  }

  /** The file the index says holds `key` (a hint for the store), or undefined when unknown/unavailable. */
  fileOfKey(key: string): HistoryFileLabel | undefined {
    const index = this.usable();
    if (!index) return undefined;
    try {
      return index.fileOfKey(key);
    } catch {
      return undefined;
    }
  }

  /** Stops mirroring (a big import writes first and rebuilds after). */
  pause(): void {
    this.stale = true;
    this.d.mirror.forget();
  }

  /** Mirrors again after `pause` (the caller then takes in what was written meanwhile). */
  resume(): void {
    this.stale = false;
  }

  /**
   * Rebuilds the index from the JSONL files in a worker while writes go on: changes made meanwhile are
   * recorded and applied to the new index after the swap (with the queue held, so none slips between).
   */
  rebuild(): Promise<void> {
    this.rebuilding ??= this.runRebuild().finally(() => {
      this.rebuilding = null;
    });
    return this.rebuilding;
  }

  /** Resolves once a running rebuild is finished. */
  async idle(): Promise<void> {
    await this.rebuilding;
  }

  /** Mirrors a store change into the index; failures mark it stale and schedule a rebuild. */
  apply(e: StoreEvent): void {
    if (this.pendingEvents) {
      this.pendingEvents.push(e);
      return;
    }
    const index = this.index;
    if (!index || this.stale) return;
    try {
      // A gap: another program appended before this record; read its lines (after this write's queue slot).
      if (this.d.mirror.apply(index, e)) this.d.follow().schedule();
    } catch (err) {
      this.staleAndRebuild(`history: index update failed, rebuilding (the JSONL write is safe): ${(err as Error).message}`);
    }
  }

  /** Taking in other programs' changes failed: the index is rebuilt from the files. */
  followFailed(err: unknown): void {
    if (this.stale) return;
    this.staleAndRebuild(`history: could not take in other programs' changes, rebuilding the index: ${(err as Error).message}`);
  }

  close(): void {
    this.index?.close();
    this.index = null;
  }

  private staleAndRebuild(message: string): void {
    this.stale = true;
    this.d.mirror.forget();
    this.d.warn(message);
    void this.ready.then(() => this.rebuild());
  }

  private async runRebuild(): Promise<void> {
    const { store, mirror, problemLog, warn } = this.d;
    this.pendingEvents = [];
    try {
      const result = await this.rebuildSomewhere();
      problemLog.report(result.problems);
      const dbPath = this.dbPath;
      await store.exclusive(async () => {
        const index = HistoryIndex.open(dbPath);
        mirror.forget();
        const gap = await mirror.catchUp(index, this.pendingEvents ?? []);
        this.pendingEvents = null;
        this.index = index;
        this.stale = false;
        if (gap) this.d.follow().schedule();
      });
    } catch (err) {
      this.stale = true;
      warn(`history: index rebuild failed, search unavailable until the next start: ${(err as Error).message}`);
    } finally {
      this.pendingEvents = null;
    }
    await this.setAsideOversized();
  }

  /** Rebuilds where the index lives; when the data folder refuses it (full, no write access), in the OS temp folder. */
  private async rebuildSomewhere(): ReturnType<typeof rebuildIndex> {
    const { dataDir, indexDb } = this.d.store.paths;
    try {
      return await rebuildIndex({ dataDir, dbPath: this.dbPath, beforeSwap: () => this.close() });
    } catch (err) {
      // Search still works from a temporary index until the disk accepts writes again.
      if (this.dbPath !== indexDb || !DISK_REFUSED.test((err as Error).message)) throw err;
      this.d.warn(`history: cannot write index.db (${(err as Error).message.split('\n')[0]}); using a temporary index`);
      this.giveBackIndexRoom(err);
      this.dbPath = tempIndexPath(dataDir);
      return await rebuildIndex({ dataDir, dbPath: this.dbPath, beforeSwap: () => this.close() });
    }
  }

  /** Moves lines too long to read (found by a rebuild) out of their files, into the quarantine file. */
  private async setAsideOversized(): Promise<void> {
    const { store, mirror, problemLog, warn } = this.d;
    if (store.health !== null) return; // nothing can be moved while the disk refuses writes
    const files = new Set(problemLog.all.flatMap((p) => (p.kind === 'oversized' ? [p.file] : [])));
    for (const file of files) {
      try {
        const n = await store.setAsideOversized(file);
        const index = this.index;
        // The records did not change, only the file's size: keep the start-up check from seeing it as stale.
        if (n > 0 && index && !this.stale) index.transaction(() => mirror.saveFileState(index, file));
      } catch (err) {
        warn(`history: could not set aside the long line(s) of ${file}: ${(err as Error).message}`);
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
    this.close();
    try {
      removeIndexFiles(this.d.store.paths.indexDb);
      this.d.warn('history: removed index.db from the full data folder (it is rebuilt when there is room)');
    } catch (e) {
      this.d.warn(`history: could not remove index.db from the full data folder: ${(e as Error).message}`);
    }
  }

  private async startupCheck(): Promise<void> {
    try {
      await this.openAndCheck();
    } catch (err) {
      this.close();
      this.stale = true;
      if (this.dbPath !== this.d.store.paths.indexDb) {
        this.d.warn(`history: index unavailable (${(err as Error).message})`);
        return;
      }
      // index.db cannot be opened where it is (a full or read-only disk): build one in the temp folder.
      this.d.warn(`history: index.db unusable (${(err as Error).message}); building a temporary index`);
      this.giveBackIndexRoom(err);
      this.dbPath = tempIndexPath(this.d.store.paths.dataDir);
      try {
        await this.openAndCheck();
      } catch (err2) {
        this.d.warn(`history: index unavailable (${(err2 as Error).message})`);
      }
    }
  }

  private async openAndCheck(): Promise<void> {
    const dbPath = this.dbPath;
    try {
      this.index = HistoryIndex.open(dbPath);
    } catch (err) {
      if (!(err instanceof IndexUnusableError) && dbPath === this.d.store.paths.indexDb) throw err;
      this.d.warn(`history: index unusable (${(err as Error).message}); rebuilding from the JSONL files`);
      removeIndexFiles(dbPath);
      await this.rebuild();
      return;
    }
    const found: HistoryProblem[] = [];
    const check = await checkIndexAgainstFiles(this.index, this.d.store.paths.dataDir, found);
    this.d.problemLog.report(found);
    if (typeof check === 'string' && check !== 'ok') {
      this.d.warn(`history: index ${check}; rebuilding`);
      await this.rebuild();
      return;
    }
    // Files changed while the app was closed (another program, an interrupted rotation): only those
    // files are read, an appended tail only from where the index stopped.
    await this.d.follow().syncNow();
  }
}
