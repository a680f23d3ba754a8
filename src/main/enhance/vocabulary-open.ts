import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertReadable, fileProblem, isDamageError, isReadOnlyError, salvagePairs, setAside, type SalvagedPair, type VocabularyDamage } from './vocabulary-repair.ts';

/**
 * Opening vocabulary.db whatever state it is in: healthy (read-write, WAL), read-only (read as it is),
 * damaged (set aside and repaired with vocabulary-repair.ts), or beyond repair in a folder that refuses
 * changes (the readable pairs from memory). Never throws: a dictation must not stop on the vocabulary.
 */

/** The database and what was done to get it. */
export interface Opened {
  readonly db: Database.Database;
  readonly damage: VocabularyDamage | null;
  /** A temp copy read instead of the file (read-only folder), removed on close. */
  readonly snapshot?: string;
}

const SCHEMA_SQL = `
      CREATE TABLE IF NOT EXISTS vocab_entry (
        id INTEGER PRIMARY KEY,
        wrong TEXT NOT NULL,
        right TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT 'user',
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (wrong, right)
      );
      CREATE TABLE IF NOT EXISTS vocab_stats (
        entry_id INTEGER NOT NULL REFERENCES vocab_entry(id) ON DELETE CASCADE,
        bucket TEXT NOT NULL,
        asr_hit INTEGER NOT NULL DEFAULT 0,
        asr_miss INTEGER NOT NULL DEFAULT 0,
        llm_hit INTEGER NOT NULL DEFAULT 0,
        llm_miss INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (entry_id, bucket)
      );
    `;

/** Creates the schema in a writable database file (or `:memory:`), WAL mode, and checks every page is readable. */
export function openWritable(file: string): Database.Database {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 2000');
    db.exec(SCHEMA_SQL);
    db.pragma('foreign_keys = ON');
    if (file !== ':memory:') assertReadable(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The file opened for reading only (a read-only file or folder): pairs are used, nothing is saved. A WAL
 * database in a folder that refuses its -shm file cannot be opened even read-only without the `immutable`
 * URI parameter (https://www.sqlite.org/wal.html#readonly), which better-sqlite3 does not take: a snapshot
 * copy in the OS temp folder is read instead (removed on close).
 */
function openReadOnly(file: string, now: () => Date, reason: string): Opened | null {
  const direct = tryReadOnly(file);
  if (!(direct instanceof Error)) return { db: direct, damage: readOnlyDamage(reason) };
  const snapshot = path.join(os.tmpdir(), `tingxie-vocabulary-${process.pid}-${Date.now()}.db`);
  try {
    copyFileSync(file, snapshot);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${snapshot}-wal`);
  } catch {
    removeSnapshot(snapshot);
    return null;
  }
  const db = tryReadOnly(snapshot, false);
  if (!(db instanceof Error)) return { db, damage: readOnlyDamage(reason), snapshot };
  // Damaged and in a folder that refuses the repair: what the copy still holds, from memory.
  const pairs = isDamageError(db) ? salvagePairs(snapshot) : [];
  removeSnapshot(snapshot);
  return inMemory(pairs, now, { state: 'unavailable', reason: `${messageOf(db)}; ${reason}`, damagedCopy: null, salvaged: pairs.length });
}

function readOnlyDamage(reason: string): VocabularyDamage {
  return { state: 'read-only', reason, damagedCopy: null, salvaged: 0 };
}

/** The database opened and checked, or the error that stopped it. */
function tryReadOnly(file: string, readonly = true): Database.Database | Error {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly, fileMustExist: true });
    db.pragma('busy_timeout = 2000');
    assertReadable(db);
    db.prepare('SELECT 1 FROM vocab_entry LIMIT 1').get();
    return db;
  } catch (err) {
    db?.close();
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Removes a temp snapshot and its side files. */
export function removeSnapshot(snapshot: string): void {
  for (const p of [snapshot, `${snapshot}-wal`, `${snapshot}-shm`]) rmSync(p, { force: true });
}

/** Opens the file, or repairs it: never throws (dictation must go on whatever state the file is in). */
export function openOrRepair(file: string, now: () => Date): Opened {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch {
    /* a read-only parent: opening says what is possible */
  }
  let problem: string | null;
  try {
    problem = fileProblem(file);
  } catch {
    problem = null; // unreadable (EACCES): opening says what is possible
  }
  problem ??= damageFoundReading(file);
  if (problem !== null) return repairFile(file, now, problem);
  try {
    return { db: openWritable(file), damage: null };
  } catch (err) {
    if (isDamageError(err)) return repairFile(file, now, messageOf(err));
    const readOnly = isReadOnlyError(err) ? openReadOnly(file, now, messageOf(err)) : null;
    if (readOnly !== null) return readOnly;
    // A folder that refuses even a new file is read-only too (the pairs that could be read, from memory).
    const state = isReadOnlyError(err) ? 'read-only' : 'unavailable';
    return inMemory(salvagePairs(file), now, { state, reason: messageOf(err), damagedCopy: null, salvaged: 0 });
  }
}

/**
 * Checks every page through a read-only connection first: a read-write connection to a damaged file
 * would replay and checkpoint its WAL into it on close, changing the very file that is to be set aside.
 * Returns the damage found, or null (including when the file cannot be opened this way at all).
 */
function damageFoundReading(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    assertReadable(db);
    return null;
  } catch (err) {
    return isDamageError(err) ? messageOf(err) : null;
  } finally {
    try {
      db?.close();
    } catch {
      /* a damaged file may refuse even this */
    }
  }
}

/**
 * Sets the damaged file aside and opens a fresh one holding what could be read from it. When the folder
 * refuses the rename, the file is left as it is and the pairs that could be read are used from memory.
 */
export function repairFile(file: string, now: () => Date, reason: string): Opened {
  let copy: string;
  try {
    copy = setAside(file, now());
  } catch (err) {
    const pairs = salvagePairs(file);
    return inMemory(pairs, now, { state: 'unavailable', reason: `${reason}; ${messageOf(err)}`, damagedCopy: null, salvaged: pairs.length });
  }
  const pairs = salvagePairs(copy);
  try {
    const db = openWritable(file);
    insertSalvaged(db, pairs, now);
    return { db, damage: { state: 'repaired', reason, damagedCopy: copy, salvaged: pairs.length } };
  } catch (err) {
    return inMemory(pairs, now, { state: 'unavailable', reason: `${reason}; ${messageOf(err)}`, damagedCopy: copy, salvaged: pairs.length });
  }
}

function inMemory(pairs: readonly SalvagedPair[], now: () => Date, damage: VocabularyDamage): Opened {
  const db = openWritable(':memory:');
  insertSalvaged(db, pairs, now);
  return { db, damage: { ...damage, salvaged: pairs.length } };
}

function insertSalvaged(db: Database.Database, pairs: readonly SalvagedPair[], now: () => Date): void {
  const ts = now().toISOString();
  const insert = db.prepare(`INSERT OR IGNORE INTO vocab_entry (wrong, right, source, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const p of pairs) insert.run(p.wrong, p.right, p.source, p.note, p.createdAt ?? ts, p.updatedAt ?? p.createdAt ?? ts);
  })();
}

/** The message of an error, or the value as text. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
