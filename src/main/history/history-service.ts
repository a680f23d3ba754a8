import fs from 'node:fs';
import { historyRecordSchema, newRecordId, recordKey, type HistoryRecord, type NewHistoryRecord, type RecordUpdate, type StoredRecord } from '../../shared/history/record.ts';
import type { HistoryPage, HistoryQuery, StatsQuery, UsageStats } from '../../shared/history/query.ts';
import { HistoryIndex, IndexUnusableError, removeIndexFiles, type IndexedRecord } from './history-index.ts';
import { HistoryStore, type HistoryFileLabel, type HistoryStoreOptions, type StoreEvent } from './history-store.ts';
import type { RecentQuery } from './hot-cache.ts';
import { rebuildIndex } from './index-rebuild.ts';
import { checkIndexAgainstFiles } from './index-sync.ts';

/** Options of the service: the store's, plus the user's history switch (from config, passed by the caller). */
export interface HistoryServiceOptions extends HistoryStoreOptions {
  /** History on/off; a function so a config change applies to the next `log()`. */
  readonly enabled: boolean | (() => boolean);
  /** Wait for the start-up index check/rebuild inside `open` (CLI, tests) instead of running it in the background. */
  readonly rebuildInline?: boolean;
}

/** Result of `log()`: `saved` is false when history is off (nothing was written anywhere). */
export interface LogResult {
  readonly record: HistoryRecord;
  readonly saved: boolean;
}

/**
 * History as the app uses it: the JSONL store (source of truth) plus the SQLite index kept in step.
 * An index failure is logged and marks the index stale (rebuilt from the JSONL); it never fails a write.
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

  private constructor(store: HistoryStore, opts: HistoryServiceOptions) {
    this.store = store;
    const enabled = opts.enabled;
    this.isEnabled = typeof enabled === 'function' ? enabled : () => enabled;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    store.onChange((e) => this.applyToIndex(e));
    this.indexReady = this.startupCheck();
  }

  /** Opens the store and the index, then checks the index against the JSONL files (rebuilding when needed). */
  static async open(opts: HistoryServiceOptions): Promise<HistoryService> {
    // No `locate` hint: the index has no public key lookup yet, so the store scans (active first).
    const svc = new HistoryService(await HistoryStore.open(opts), opts);
    if (opts.rebuildInline) await svc.indexReady;
    return svc;
  }

  /** Whether the index is known to be behind the JSONL (a rebuild is due or running). */
  get indexStale(): boolean {
    return this.stale || this.index === null;
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
    return { record: await this.store.log(input), saved: true };
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
  async stats(q: StatsQuery): Promise<UsageStats> {
    await this.indexReady;
    return this.requireIndex().stats(q);
  }

  /** The open index (for the CLI and tests), or null while missing/rebuilding. */
  get indexOrNull(): HistoryIndex | null {
    return this.index;
  }

  /** Rebuilds the index from the JSONL files in a worker, with writes held back meanwhile. */
  rebuildIndex(): Promise<void> {
    this.rebuilding ??= this.store
      .exclusive(async () => {
        const dbPath = this.store.paths.indexDb;
        await rebuildIndex({ dataDir: this.store.paths.dataDir, dbPath, beforeSwap: () => this.closeIndex() });
        this.index = HistoryIndex.open(dbPath);
        this.stale = false;
      })
      .catch((err: unknown) => {
        this.stale = true;
        this.warn(`history: index rebuild failed, search unavailable until the next start: ${(err as Error).message}`);
      })
      .finally(() => {
        this.rebuilding = null;
      });
    return this.rebuilding;
  }

  /** Waits for queued writes and closes the index. */
  async close(): Promise<void> {
    await this.indexReady.catch(() => undefined);
    await this.rebuilding;
    await this.store.close();
    this.closeIndex();
  }

  private requireIndex(): HistoryIndex {
    if (!this.index) throw new Error('history index unavailable (rebuilding or failed)');
    return this.index;
  }

  private closeIndex(): void {
    this.index?.close();
    this.index = null;
  }

  private async startupCheck(): Promise<void> {
    const dbPath = this.store.paths.indexDb;
    try {
      this.index = HistoryIndex.open(dbPath);
    } catch (err) {
      if (!(err instanceof IndexUnusableError)) throw err;
      this.warn(`history: index unusable (${err.message}); rebuilding from the JSONL files`);
      removeIndexFiles(dbPath);
      await this.rebuildIndex();
      return;
    }
    const check = await checkIndexAgainstFiles(this.index, this.store.paths.dataDir);
    if (check === 'ok' && !this.store.openReport.recoveredRotation) return;
    this.warn(`history: index ${typeof check === 'string' ? check : `stale (${check.stale.join(', ')})`}; rebuilding`);
    await this.rebuildIndex();
  }

  /** Mirrors a store change into the index; failures mark it stale and schedule a rebuild. */
  private applyToIndex(e: StoreEvent): void {
    const index = this.index;
    if (!index || this.stale) return;
    try {
      const touched = new Set<HistoryFileLabel>();
      index.transaction(() => {
        switch (e.type) {
          case 'appended':
            index.upsert([{ key: recordKey(e.record), record: e.record, file: 'active' }]);
            touched.add('active');
            break;
          case 'updated':
            index.upsert([{ key: recordKey(e.record), record: e.record, file: e.file }]);
            touched.add(e.file);
            break;
          case 'deleted':
            index.remove(e.keys);
            touched.add(e.file);
            break;
          case 'rotated': {
            const byMonth = new Map<string, string[]>();
            for (const m of e.rotation.moves) byMonth.set(m.month, [...(byMonth.get(m.month) ?? []), m.key]);
            for (const [month, keys] of byMonth) {
              index.moveToFile(keys, month);
              touched.add(month);
            }
            touched.add('active');
            break;
          }
          case 'added': {
            const rows: IndexedRecord[] = e.rows.map((r) => ({ key: recordKey(r.record), record: r.record, file: r.file }));
            index.upsert(rows);
            for (const r of rows) touched.add(r.file);
            break;
          }
          case 'cleared':
            for (const f of e.files) {
              index.remove(index.keysOfFile(f));
              touched.add(f);
            }
            break;
          default: {
            const never: never = e;
            throw new Error(`unknown store event ${JSON.stringify(never)}`);
          }
        }
        for (const f of touched) this.saveFileState(index, f);
      });
    } catch (err) {
      this.stale = true;
      this.warn(`history: index update failed, rebuilding (the JSONL write is safe): ${(err as Error).message}`);
      void this.indexReady.then(() => this.rebuildIndex());
    }
  }

  private saveFileState(index: HistoryIndex, file: HistoryFileLabel): void {
    let st: fs.Stats;
    try {
      st = fs.statSync(this.store.pathOf(file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      index.deleteFileState(file);
      return;
    }
    index.setFileState(file, { size: st.size, mtimeMs: st.mtimeMs, count: index.count(file) });
  }
}
