import Database from 'better-sqlite3';
import fs from 'node:fs';

/**
 * What to do when vocabulary.db cannot be used as it is. Unlike the history index (index.db, derived
 * from the JSONL files and simply rebuilt), the vocabulary is the user's own data: it is never deleted.
 * The damaged file (with its -wal/-shm/-journal side files) is renamed aside as
 * `vocabulary.db.damaged-<timestamp>`, whatever SQLite can still read from it is copied into a fresh
 * file, and the user is told where the damaged copy is. Ways a file gets damaged:
 * https://www.sqlite.org/howtocorrupt.html
 */

/** Why vocabulary.db was not used as it was, and what was done about it. */
export interface VocabularyDamage {
  /**
   * `repaired`: the damaged file was set aside and a fresh one (with the pairs that could be read) is in use;
   * `unavailable`: the file could not be opened or repaired, so the pairs that could be read are used from memory for this session;
   * `read-only`: the file (or its folder) cannot be written: pairs are used, edits and counters are not saved.
   */
  readonly state: 'repaired' | 'unavailable' | 'read-only';
  /** The technical reason (SQLite's or the OS's message). */
  readonly reason: string;
  /** Where the damaged file now is; null when it was not moved. */
  readonly damagedCopy: string | null;
  /** Pairs read back from the damaged file. */
  readonly salvaged: number;
}

/** A pair read back from a damaged file. */
export interface SalvagedPair {
  readonly wrong: string;
  readonly right: string;
  readonly source: 'asr' | 'llm' | 'user';
  readonly note: string;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

/** The file is damaged (SQLite said so, or its first bytes are not a SQLite database). */
export class VocabularyDamagedError extends Error {
  override readonly name = 'VocabularyDamagedError';
}

/** Result codes that mean the file itself is damaged or is no database (https://www.sqlite.org/rescode.html). */
export function isDamageError(err: unknown): boolean {
  if (err instanceof VocabularyDamagedError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'SQLITE_IOERR_SHORT_READ');
}

/** Result codes and OS errors that mean the file or its folder refuses writes. */
export function isReadOnlyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM');
}

/**
 * What is wrong with the path before SQLite opens it, or null. A missing or empty file is a new database
 * to SQLite (https://www.sqlite.org/fileformat2.html §1.3); a folder, a file shorter than the 100-byte
 * header or one without the "SQLite format 3" magic is damage.
 */
export function fileProblem(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  if (stat.isDirectory()) return 'a folder is in place of the vocabulary file';
  if (stat.size === 0) return null;
  if (stat.size < 100) return `the file is ${stat.size} bytes, shorter than a SQLite header`;
  const header = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  return header.toString('latin1') === 'SQLite format 3\u0000' ? null : 'not a SQLite database (bad magic)';
}

/** Throws VocabularyDamagedError unless `PRAGMA quick_check` finds the whole file readable (https://www.sqlite.org/pragma.html#pragma_quick_check). */
export function assertReadable(db: Database.Database): void {
  const rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
  if (problems.length > 0) throw new VocabularyDamagedError(`database disk image is malformed: ${problems.join('; ')}`);
}

/** `vocabulary.db.damaged-<timestamp>`: a name that sorts by time and is valid on every OS (no colons). */
export function damagedCopyPath(file: string, now: Date): string {
  return `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/** Renames the file (or folder) and its side files aside; returns the new path. Throws when the folder refuses. */
export function setAside(file: string, now: Date): string {
  let copy = damagedCopyPath(file, now);
  for (let n = 2; fs.existsSync(copy); n++) copy = `${damagedCopyPath(file, now)}-${n}`;
  fs.renameSync(file, copy);
  // The WAL may hold the newest pairs: it moves with its database so the salvage can read it.
  for (const side of ['-wal', '-shm', '-journal']) {
    if (fs.existsSync(`${file}${side}`)) fs.renameSync(`${file}${side}`, `${copy}${side}`);
  }
  return copy;
}

const ENTRY_COLUMNS = 'wrong, right, source, note, created_at, updated_at';

/**
 * Reads every pair SQLite can still reach, row by row, the way the recovery extension does without it
 * (better-sqlite3 does not ship https://www.sqlite.org/recovery.html): the table scanned from both ends
 * (a broken leaf page stops a scan, the other direction reaches the pages after it), then the
 * UNIQUE(wrong, right) index, which holds both texts without the table's pages. Never throws.
 */
export function salvagePairs(file: string): SalvagedPair[] {
  if (!isPlainFile(file)) return [];
  const found = new Map<string, SalvagedPair>();
  let db: Database.Database | undefined;
  try {
    // Read-only: reading must never change the damaged copy (the user may still hand it to a recovery tool).
    db = new Database(file, { readonly: true, fileMustExist: true });
    // A file shorter than its header says is refused outright unless writable_schema is on, which
    // better-sqlite3's defensive mode ignores (https://www.sqlite.org/pragma.html#pragma_writable_schema,
    // https://www.sqlite.org/c3ref/c_dbconfig_defensive.html). The connection is read-only, so nothing is written.
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    const scans = [
      `SELECT ${ENTRY_COLUMNS} FROM vocab_entry NOT INDEXED ORDER BY rowid`,
      `SELECT ${ENTRY_COLUMNS} FROM vocab_entry NOT INDEXED ORDER BY rowid DESC`,
      `SELECT wrong, right FROM vocab_entry INDEXED BY sqlite_autoindex_vocab_entry_1 ORDER BY wrong, right`,
      `SELECT wrong, right FROM vocab_entry INDEXED BY sqlite_autoindex_vocab_entry_1 ORDER BY wrong DESC, right DESC`,
    ];
    for (const sql of scans) readRows(db, sql, found);
  } catch {
    // Not even the schema is readable: nothing to salvage.
  } finally {
    try {
      db?.close();
    } catch {
      /* a damaged file may refuse even this */
    }
  }
  return [...found.values()];
}

function isPlainFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Adds the rows `sql` yields until SQLite stops on a damaged page. */
function readRows(db: Database.Database, sql: string, into: Map<string, SalvagedPair>): void {
  try {
    for (const row of db.prepare(sql).iterate() as Iterable<Record<string, unknown>>) {
      const pair = toPair(row);
      if (pair === null) continue;
      const key = `${pair.wrong}\u0000${pair.right}`;
      // A full table row is better than the two texts from the index.
      if (!into.has(key) || (into.get(key)?.createdAt === null && pair.createdAt !== null)) into.set(key, pair);
    }
  } catch {
    /* the rows read so far are kept */
  }
}

function toPair(row: Record<string, unknown>): SalvagedPair | null {
  const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' && v.length <= 200 ? v.trim() : null);
  const wrong = text(row.wrong);
  const right = text(row.right);
  if (wrong === null || right === null || wrong === right) return null;
  const source = row.source === 'asr' || row.source === 'llm' ? row.source : 'user';
  const note = typeof row.note === 'string' ? row.note.slice(0, 500) : '';
  const iso = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);
  return { wrong, right, source, note, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}
