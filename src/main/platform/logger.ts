/**
 * The main-process log: one line per event in `<dataDir>/logs/main.log`, JSON or text, with
 * size-based rotation (main.log → main.log.1 → … → main.log.<keep>, the oldest dropped).
 *
 * Writes are synchronous appends: the main process logs rarely, and a log line written just before a
 * crash is the one that matters. Logging must never take the app down, so every file error (full
 * disk, read-only folder, missing permissions) falls back to stderr and is swallowed. Pure Node.
 */
import { appendFileSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../../shared/redact.ts';

/** Severity levels, least to most severe. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Structured context attached to a line (values are JSON-serialised; Errors keep message + stack). */
export type LogFields = Readonly<Record<string, unknown>>;

/** The logging surface handed to the rest of main. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  log(level: LogLevel, message: string, fields?: LogFields): void;
  /** A logger that tags every line with `scope` (e.g. 'ipc', 'window'). */
  child(scope: string): Logger;
  /** Path of the current log file. */
  readonly file: string;
}

/** Options for createFileLogger. */
export interface FileLoggerOptions {
  /** Folder for the log files (created if missing), normally <dataDir>/logs. */
  readonly dir: string;
  /** File name of the current log. Default 'main.log'. */
  readonly fileName?: string;
  /** Lines below this level are dropped. Default 'info'. */
  readonly level?: LogLevel;
  /** 'json' (one object per line, default) or 'text'. */
  readonly format?: 'json' | 'text';
  /** Rotate once the current file would grow past this many bytes. Default 5 MB. */
  readonly maxBytes?: number;
  /** How many rotated files to keep (main.log.1 … main.log.<keep>). Default 3. */
  readonly keep?: number;
  /** Also echo every line to this sink (e.g. stderr in development). */
  readonly echo?: (line: string) => void;
  /** Where lines go when the file cannot be written. Default: process.stderr. */
  readonly fallback?: (line: string) => void;
  /** Clock, injectable for tests. */
  readonly now?: () => Date;
}

/** Opens (creates) the log folder and returns a logger writing to it; never throws. */
export function createFileLogger(opts: FileLoggerOptions): Logger {
  const file = join(opts.dir, opts.fileName ?? 'main.log');
  const minRank = LEVEL_RANK[opts.level ?? 'info'];
  const format = opts.format ?? 'json';
  const maxBytes = Math.max(1, opts.maxBytes ?? 5 * 1024 * 1024);
  const keep = Math.max(0, Math.floor(opts.keep ?? 3));
  const fallback = opts.fallback ?? ((line: string) => writeStderr(line));
  const now = opts.now ?? (() => new Date());
  let size: number | null = null; // bytes in the current file, learned lazily
  let failing = false; // after a file error, say so once on the fallback, then keep trying quietly

  try {
    mkdirSync(opts.dir, { recursive: true });
  } catch (err) {
    fallback(`tingxie: cannot create log folder ${opts.dir}: ${describe(err)}\n`);
  }

  function write(line: string): void {
    opts.echo?.(line);
    try {
      if (size === null) size = currentSize(file);
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) {
        rotate(file, keep);
        size = 0;
      }
      appendFileSync(file, line);
      size += bytes;
      failing = false;
    } catch (err) {
      size = null; // re-learn after the failure
      if (!failing) fallback(`tingxie: cannot write log ${file} (${describe(err)}); logging to stderr\n`);
      failing = true;
      fallback(line);
    }
  }

  function make(scope: string | undefined): Logger {
    const log = (level: LogLevel, message: string, fields?: LogFields): void => {
      if (LEVEL_RANK[level] < minRank) return;
      let line: string;
      try {
        line = formatLine(format, now(), level, scope, message, fields);
      } catch (err) {
        line = formatLine(format, now(), level, scope, message, { unserialisableFields: describe(err) });
      }
      write(line);
    };
    return {
      file,
      log,
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (s) => make(scope === undefined ? s : `${scope}.${s}`),
    };
  }
  return make(undefined);
}

/** One log line (with trailing newline) in the chosen format; pure. */
export function formatLine(
  format: 'json' | 'text',
  time: Date,
  level: LogLevel,
  scope: string | undefined,
  message: string,
  fields: LogFields | undefined,
): string {
  // Fields and messages carry provider replies and URLs, which can hold an API key. The message is redacted
  // as written (before JSON escaping hides an echoed `"api_key": "…"`), then the finished line once more for
  // the fields (a removed key leaves `***` inside its string, so a JSON line stays valid JSON).
  const text = redact(message);
  if (format === 'json') {
    return `${redact(JSON.stringify({ time: time.toISOString(), level, ...(scope ? { scope } : {}), msg: text, ...fields }, replacer))}\n`;
  }
  const extra = fields && Object.keys(fields).length > 0 ? ` ${redact(JSON.stringify(fields, replacer))}` : '';
  // Text lines stay one line each even if the message has newlines.
  return `${time.toISOString()} ${level.toUpperCase().padEnd(5)} ${scope ? `[${scope}] ` : ''}${text.replace(/\r?\n/g, '\\n')}${extra}\n`;
}

/** JSON replacer: Errors become { name, message, stack }, bigints strings (a cycle makes the caller log the serialisation error instead). */
function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Shifts main.log.(keep-1) → main.log.keep … main.log → main.log.1, dropping the oldest. */
function rotate(file: string, keep: number): void {
  if (keep === 0) {
    unlinkSync(file);
    return;
  }
  tryUnlink(`${file}.${keep}`);
  for (let i = keep - 1; i >= 1; i--) tryRename(`${file}.${i}`, `${file}.${i + 1}`);
  renameSync(file, `${file}.1`);
}

function currentSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

function tryRename(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function writeStderr(line: string): void {
  try {
    process.stderr.write(line);
  } catch {
    /* nowhere left to write: drop the line rather than crash */
  }
}
