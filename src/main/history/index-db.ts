import { createRequire } from 'node:module';

/**
 * The slice of better-sqlite3 the history index uses, typed here because the project carries no
 * @types/better-sqlite3 (and must not add dependencies). Loaded with createRequire: it is a CommonJS
 * native module, which bundlers keep external.
 */

/** A prepared statement. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Return only the first column of each row. */
  pluck(toggle?: boolean): SqliteStatement;
}

/** An open database connection. */
export interface SqliteDb {
  readonly open: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  /** Registers a JS function callable from SQL (triggers use it). */
  function(name: string, options: { deterministic?: boolean; varargs?: boolean }, fn: (...args: never[]) => unknown): SqliteDb;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

type SqliteConstructor = new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => SqliteDb;

const require = createRequire(import.meta.url);
let ctor: SqliteConstructor | undefined;

/** Opens a better-sqlite3 database (the module is loaded on first use). */
export function openSqlite(filename: string): SqliteDb {
  ctor ??= require('better-sqlite3') as SqliteConstructor;
  return new ctor(filename);
}
