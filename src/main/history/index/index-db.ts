import Database from 'better-sqlite3';

/**
 * The history index's SQLite connection: better-sqlite3 (Node-API, so one build serves Node and
 * Electron), typed by @types/better-sqlite3 like the vocabulary store's.
 */

/** A prepared statement. */
export type SqliteStatement = Database.Statement;

/** An open database connection. */
export type SqliteDb = Database.Database;

/** Opens (creating) a better-sqlite3 database file. */
export function openSqlite(filename: string): SqliteDb {
  return new Database(filename);
}
