import fs from 'node:fs';
import { openSqlite, type SqliteDb } from './index-db.ts';
import type { HistoryPage, HistoryQuery, StatsQuery, UsageStats } from '../../../shared/history/query.ts';
import { CountCache, countHistoryQuery, explainHistoryQuery, runHistoryQuery, type MatchCount } from './index-query.ts';
import { MatchListCache } from './index-match-list.ts';
import { ngramTokens } from './index-ngram.ts';
import {
  BODY_SQL_FUNCTION,
  DROP_FTS_TRIGGERS_SQL,
  DROP_SQL,
  FILL_FTS_SQL,
  FTS_TRIGGERS_SQL,
  GRAMS_SQL_FUNCTION,
  headerProblem,
  INDEX_SCHEMA_VERSION,
  IndexUnusableError,
  isCorruptionError,
  recordColumns,
  ridBase,
  ridMs,
  RID_SLOTS,
  SCHEMA_SQL,
  searchBodyOf,
  timestampMs,
  type FileState,
  type IndexedRecord,
} from './index-schema.ts';
import { computeUsageStats } from './index-stats.ts';
import { CorrectedRowsReader, type CorrectedRow } from './index-corrected.ts';

/**
 * A full disk in an error's message: SQLite's words for SQLITE_FULL (https://www.sqlite.org/rescode.html#full)
 * or the OS's, as the rebuild worker reports them. Full as opposed to read-only: room can be given back.
 */
export const DISK_FULL_ERROR = /SQLITE_FULL|database or disk is full|ENOSPC|EDQUOT/i;

export { IndexUnusableError, type FileState, type IndexedRecord } from './index-schema.ts';
export type { CorrectedRow } from './index-corrected.ts';

const COLUMNS = Object.keys(
  recordColumns({ key: '', file: '', record: { timestamp: '', asr_text: '', final_text: '' } as IndexedRecord['record'] }),
);

/** Options for opening the index. */
export interface OpenIndexOptions {
  /** Build-time tuning for a throw-away file being rebuilt: no journal, no fsync. Never for the live index. */
  readonly bulkLoad?: boolean;
}

/**
 * The derived SQLite index over active and archived history records: FTS5 trigram search, filters,
 * keyset pages, stats and the per-file state used by the start-up check. Synchronous (better-sqlite3):
 * every call is short by design; the rebuild runs in a worker thread.
 */
export class HistoryIndex {
  /** Path of index.db. */
  readonly dbPath: string;
  /** True when open() created the schema (new file, emptied file or old schema): it must be rebuilt. */
  readonly createdFresh: boolean;
  private readonly db: SqliteDb;
  private readonly counts = new CountCache();
  private readonly lists = new MatchListCache();
  private bulk = false;
  private generation = 0;
  private readonly stmts: ReturnType<typeof prepareStatements>;
  private readonly corrected: CorrectedRowsReader;

  private constructor(dbPath: string, db: SqliteDb, createdFresh: boolean) {
    this.dbPath = dbPath;
    this.db = db;
    this.createdFresh = createdFresh;
    this.stmts = prepareStatements(db);
    this.corrected = new CorrectedRowsReader(db);
  }

  /** Opens (creating or migrating) index.db in WAL mode; throws IndexUnusableError when the file is damaged. */
  static open(dbPath: string, options: OpenIndexOptions = {}): HistoryIndex {
    const problem = headerProblem(dbPath);
    if (problem) throw new IndexUnusableError(problem, dbPath);
    let db: SqliteDb | undefined;
    try {
      db = openSqlite(dbPath);
      if (options.bulkLoad) {
        db.pragma('journal_mode = OFF');
        db.pragma('synchronous = OFF');
        db.pragma('cache_size = -65536');
        db.pragma('temp_store = MEMORY');
      } else {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        // A killed app leaves its WAL as large as it grew (SQLite truncates it only on a clean close), and
        // on a nearly full disk that is the room the history's own appends and rotation need: fold it into
        // the database and give the space back now, and keep it small after every checkpoint. On a disk
        // too full to fold it in, the WAL would keep holding that room: the open fails, and the service
        // moves the index to the temp folder and removes this one (history-service.ts, giveBackIndexRoom).
        db.pragma('journal_size_limit = 1048576');
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } catch (err) {
          if (DISK_FULL_ERROR.test((err as Error).message)) throw err;
          // Anything else (busy, say): SQLite's own auto-checkpoint retries later.
        }
        // 8 MB page cache (better-sqlite3 defaults to 16 MB): pages are fetched by primary key and FTS
        // doclists are read sequentially, so a bigger cache buys little while browsing costs RSS (B6).
        db.pragma('cache_size = -8192');
      }
      // The triggers that keep both FTS tables in step call these: register before any write.
      db.function(BODY_SQL_FUNCTION, { deterministic: true }, (asr: string, enh: string | null, fin: string) => searchBodyOf(asr, enh, fin));
      db.function(GRAMS_SQL_FUNCTION, { deterministic: true }, (asr: string, enh: string | null, fin: string) =>
        ngramTokens(searchBodyOf(asr, enh, fin)),
      );
      const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get() !== undefined;
      const version = hasMeta
        ? (db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string } | undefined)?.value
        : undefined;
      let fresh = false;
      if (version !== String(INDEX_SCHEMA_VERSION)) {
        // Derived data: an unknown or older layout is dropped and rebuilt from the JSONL files.
        fresh = true;
        db.exec(DROP_SQL);
        db.exec(SCHEMA_SQL);
        db.prepare(`INSERT INTO meta(key, value) VALUES ('schema_version', ?)`).run(String(INDEX_SCHEMA_VERSION));
      } else {
        db.exec(SCHEMA_SQL);
      }
      // Touch the newest pages of every structure so gross damage surfaces now rather than mid-session.
      db.prepare('SELECT rid FROM records ORDER BY rid DESC LIMIT 1').get();
      db.prepare('SELECT count(*) FROM file_state').get();
      db.prepare(`SELECT rowid FROM search_fts WHERE search_fts MATCH '"tingxie-probe"' LIMIT 1`).get();
      return new HistoryIndex(dbPath, db, fresh);
    } catch (err) {
      db?.close();
      if (isCorruptionError(err)) throw new IndexUnusableError(`index database is damaged: ${(err as Error).message}`, dbPath, { cause: err });
      throw err;
    }
  }

  /** Inserts or replaces records (by key) in one transaction; a record keeps its rowid unless its timestamp changed. */
  upsert(rows: readonly IndexedRecord[]): void {
    if (rows.length === 0) return;
    this.guard(() => this.upsertTx(rows));
    this.generation++;
  }

  /** Removes records by key (missing keys are ignored). */
  remove(keys: readonly string[]): void {
    if (keys.length === 0) return;
    this.guard(() => this.removeTx(keys));
    this.generation++;
  }

  /** Re-labels records as living in another JSONL file (rotation: 'active' → 'YYYY-MM'). */
  moveToFile(keys: readonly string[], file: string): void {
    if (keys.length === 0) return;
    this.guard(() => this.moveTx(keys, file));
    this.generation++;
  }

  /**
   * One page of the History Browser (keyset pagination, newest first). With `count: false` the page
   * comes back without waiting for the total (null unless already known); fetch it with countMatches.
   */
  query(q: HistoryQuery): HistoryPage {
    return this.guard(() => runHistoryQuery(this.db, q, { counts: this.counts, lists: this.lists, generation: this.generation }));
  }

  /** Total matches (and facets when asked) of a query, for "Page X / Y"; cached until the index changes. */
  countMatches(q: HistoryQuery): MatchCount {
    return this.guard(() => countHistoryQuery(this.db, q, { counts: this.counts, lists: this.lists, generation: this.generation }));
  }

  /** EXPLAIN QUERY PLAN lines of a page query (diagnostics, tests, benchmarks). */
  explain(q: HistoryQuery, cursorRid: number | null = null): string[] {
    return this.guard(() => explainHistoryQuery(this.db, q, cursorRid));
  }

  /** Usage statistics by local day and mode. */
  stats(q: StatsQuery): UsageStats {
    return this.guard(() => computeUsageStats(this.db, q));
  }

  /** Number of indexed records, optionally of one file. */
  count(file?: string): number {
    return this.guard(() =>
      file === undefined
        ? (this.stmts.countAll.get() as { n: number }).n
        : (this.stmts.countFile.get(file) as { n: number }).n,
    );
  }

  /** The JSONL file a record lives in, by key (lets the store skip scanning files); undefined when unknown. */
  fileOfKey(key: string): string | undefined {
    return this.guard(() => (this.stmts.fileOfKey.get(key) as { file: string } | undefined)?.file);
  }

  /** Keys of every record of one file (start-up reconciliation). */
  keysOfFile(file: string): string[] {
    return this.guard(() => (this.stmts.keysOfFile.all(file) as { key: string }[]).map((r) => r.key));
  }

  /**
   * Records with `user_corrected` set, newest first (descending rowid), strictly older than `beforeRid`
   * when given, at most `limit`: one page of the enhancer's pass over all corrections, archives included.
   * Walks the rowid b-tree from the cursor down, so each page costs its own rows (plus the uncorrected
   * rows it skips), never a sort.
   */
  correctedRows(q: { readonly beforeRid?: number; readonly limit: number }): CorrectedRow[] {
    return this.guard(() => this.corrected.page(q));
  }

  /** The corrected records among `keys` (unknown or uncorrected keys are skipped), in the order given. */
  correctedRowsByKeys(keys: readonly string[]): CorrectedRow[] {
    if (keys.length === 0) return [];
    return this.guard(() => this.corrected.byKeys(keys));
  }

  /** Files that have records or a saved state. */
  files(): string[] {
    return this.guard(() => (this.stmts.files.all() as { file: string }[]).map((r) => r.file));
  }

  /** The saved size/mtime/count of one JSONL file, if any. */
  getFileState(file: string): FileState | undefined {
    return this.guard(() => {
      const r = this.stmts.getState.get(file) as { size: number; mtime_ms: number; count: number; tail: string | null } | undefined;
      if (!r) return undefined;
      return r.tail === null ? { size: r.size, mtimeMs: r.mtime_ms, count: r.count } : { size: r.size, mtimeMs: r.mtime_ms, count: r.count, tail: r.tail };
    });
  }

  /** Saves the size/mtime/count of one JSONL file. */
  setFileState(file: string, s: FileState): void {
    this.guard(() => {
      this.stmts.setState.run(file, s.size, s.mtimeMs, s.count);
      if (s.tail === undefined) this.stmts.deleteTail.run(file);
      else this.stmts.setTail.run(file, s.tail);
    });
  }

  /** Forgets the state of a file (it no longer exists). */
  deleteFileState(file: string): void {
    this.guard(() => {
      this.stmts.deleteState.run(file);
      this.stmts.deleteTail.run(file);
    });
  }

  /** Runs `fn` in one transaction (callers batching several index operations). */
  transaction<T>(fn: () => T): T {
    return this.guard(() => this.db.transaction(fn)());
  }

  /**
   * Starts a bulk load into a fresh, empty index (rebuild): the FTS triggers are dropped so `bulkInsert`
   * only writes `records`; `finishBulkLoad` then builds both FTS tables in one pass each.
   */
  beginBulkLoad(): void {
    this.guard(() => this.db.exec(DROP_FTS_TRIGGERS_SQL));
    this.bulk = true;
  }

  /**
   * Inserts records during a bulk load, one transaction. New keys at a free rowid take one INSERT each;
   * anything else (same key again, rowid taken) goes through the normal upsert logic.
   */
  bulkInsert(rows: readonly IndexedRecord[]): void {
    if (!this.bulk) throw new Error('bulkInsert outside beginBulkLoad/finishBulkLoad');
    this.guard(() =>
      this.db.transaction(() => {
        const s = this.stmts;
        const slow: IndexedRecord[] = [];
        for (const row of rows) {
          const rid = ridBase(timestampMs(row.record.timestamp));
          if (s.insertNew.run({ ...recordColumns(row), rid }).changes === 0) slow.push(row);
        }
        if (slow.length > 0) this.upsertTx(slow);
      })(),
    );
    this.generation++;
  }

  /** Builds both FTS tables from `records` and restores the triggers (then call optimize). */
  finishBulkLoad(): void {
    this.guard(() => {
      this.db.exec(`INSERT INTO search_fts(search_fts) VALUES ('delete-all'); INSERT INTO gram_fts(gram_fts) VALUES ('delete-all');`);
      this.db.exec(FILL_FTS_SQL);
      this.db.exec(FTS_TRIGGERS_SQL);
    });
    this.bulk = false;
    this.generation++;
  }

  /** Merges the FTS segments (after a bulk load) and checkpoints the WAL. */
  optimize(): void {
    this.guard(() => {
      this.db.exec(`INSERT INTO search_fts(search_fts) VALUES ('optimize')`);
      this.db.exec(`INSERT INTO gram_fts(gram_fts) VALUES ('optimize')`);
      this.db.exec('ANALYZE');
    });
  }

  /** Closes the database (checkpoints the WAL). */
  close(): void {
    if (this.db.open) this.db.close();
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (isCorruptionError(err)) throw new IndexUnusableError(`index database is damaged: ${(err as Error).message}`, this.dbPath, { cause: err });
      throw err;
    }
  }

  private readonly upsertTx = (rows: readonly IndexedRecord[]): void => {
    this.db.transaction(() => {
      const s = this.stmts;
      for (const row of rows) {
        const ms = timestampMs(row.record.timestamp);
        const cols = recordColumns(row);
        const existing = s.ridOfKey.get(row.key) as { rid: number } | undefined;
        if (existing && ridMs(existing.rid) === ms) {
          // The update trigger re-indexes the texts only when one of them changed.
          s.update.run({ ...cols, rid: existing.rid });
          continue;
        }
        if (existing) s.deleteRid.run(existing.rid);
        const rid = this.allocateRid(ms);
        s.insert.run({ ...cols, rid });
      }
    })();
  };

  /** First free rowid at or after the record's millisecond (1024 tie-break slots, spilling to later ms). */
  private allocateRid(ms: number): number {
    let base = ridBase(ms);
    for (;;) {
      const top = (this.stmts.maxInSlot.get(base, base + RID_SLOTS) as { m: number | null }).m;
      if (top === null) return base;
      if (top + 1 < base + RID_SLOTS) return top + 1;
      // The slot's top is taken: look for a hole left by a delete before spilling into the next ms.
      const hole = this.stmts.holeInSlot.get(base, base + RID_SLOTS) as { r: number | null } | undefined;
      if (hole?.r != null) return hole.r;
      base += RID_SLOTS;
    }
  }

  private readonly removeTx = (keys: readonly string[]): void => {
    this.db.transaction(() => {
      for (const key of keys) this.stmts.deleteKey.run(key);
    })();
  };

  private readonly moveTx = (keys: readonly string[], file: string): void => {
    this.db.transaction(() => {
      for (const key of keys) this.stmts.moveKey.run(file, key);
    })();
  };
}

function prepareStatements(db: SqliteDb) {
  const placeholders = COLUMNS.map((c) => `@${c}`).join(', ');
  return {
    ridOfKey: db.prepare('SELECT rid FROM records WHERE key = ?'),
    fileOfKey: db.prepare('SELECT file FROM records WHERE key = ?'),
    insert: db.prepare(`INSERT INTO records (rid, ${COLUMNS.join(', ')}) VALUES (@rid, ${placeholders})`),
    update: db.prepare(`UPDATE records SET ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE rid = @rid`),
    insertNew: db.prepare(`INSERT INTO records (rid, ${COLUMNS.join(', ')}) VALUES (@rid, ${placeholders}) ON CONFLICT DO NOTHING`),
    deleteRid: db.prepare('DELETE FROM records WHERE rid = ?'),
    deleteKey: db.prepare('DELETE FROM records WHERE key = ?'),
    moveKey: db.prepare('UPDATE records SET file = ? WHERE key = ?'),
    maxInSlot: db.prepare('SELECT max(rid) AS m FROM records WHERE rid >= ? AND rid < ?'),
    holeInSlot: db.prepare(
      `SELECT a.rid + 1 AS r FROM records a WHERE a.rid >= ? AND a.rid < ? - 1
       AND NOT EXISTS (SELECT 1 FROM records b WHERE b.rid = a.rid + 1) ORDER BY a.rid LIMIT 1`,
    ),
    countAll: db.prepare('SELECT count(*) AS n FROM records'),
    countFile: db.prepare('SELECT count(*) AS n FROM records WHERE file = ?'),
    keysOfFile: db.prepare('SELECT key FROM records WHERE file = ? ORDER BY rid'),
    files: db.prepare('SELECT DISTINCT file FROM records UNION SELECT file FROM file_state'),
    getState: db.prepare('SELECT s.size, s.mtime_ms, s.count, t.tail FROM file_state s LEFT JOIN file_tail t ON t.file = s.file WHERE s.file = ?'),
    setTail: db.prepare('INSERT INTO file_tail (file, tail) VALUES (?, ?) ON CONFLICT(file) DO UPDATE SET tail = excluded.tail'),
    deleteTail: db.prepare('DELETE FROM file_tail WHERE file = ?'),
    setState: db.prepare(
      `INSERT INTO file_state (file, size, mtime_ms, count) VALUES (?, ?, ?, ?)
       ON CONFLICT(file) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, count = excluded.count`,
    ),
    deleteState: db.prepare('DELETE FROM file_state WHERE file = ?'),
  };
}

/** Deletes index.db and its WAL/SHM side files (before a rebuild swaps a new file in). */
export function removeIndexFiles(dbPath: string): void {
  for (const p of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`]) fs.rmSync(p, { force: true });
}
