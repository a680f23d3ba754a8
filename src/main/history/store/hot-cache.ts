import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { isPreviewConfirmed, recordKey, type StoredRecord } from '../../../shared/history/record.ts';
import { MAX_LINE_BYTES, parseJsonlLine } from './jsonl-reader.ts';
import { openRegularFile } from './line-scan.ts';

/** Seed: the hot path keeps the last 200 raw records. */
export const HOT_CACHE_SIZE = 200;
/** Seed: final texts longer than this (large clipboard enhancements) are never injected. */
export const MAX_INJECTED_FINAL_CHARS = 500;

/**
 * Reads the last `n` parseable records of a JSONL file by reading backwards in chunks, never the
 * whole file. Bad lines are skipped (they do not count towards `n`), as the reader treats them
 * (jsonl-reader.ts): a line whose bytes are not valid UTF-8 is never decoded into a record (its U+FFFD
 * text would be injected into prompts); an unterminated last line that does not parse is ignored (the
 * store repairs it before appending). Only a regular file is opened (a FIFO would block a plain open).
 * Each byte is read once and copied at most once: linear in what it reads.
 */
export async function readTailRecords(filePath: string, n: number, chunkSize = 64 * 1024): Promise<StoredRecord[]> {
  let fh;
  try {
    fh = await openRegularFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  try {
    return await readTail(fh, n, chunkSize);
  } finally {
    await fh.close();
  }
}

/** The backwards walk of {@link readTailRecords} over an open handle. */
async function readTail(fh: FileHandle, n: number, chunkSize: number): Promise<StoredRecord[]> {
  let pos = (await fh.stat()).size;
  const found: StoredRecord[] = []; // newest first
  // The later pieces of the line being walked back through, newest piece first; joined once when its start is found.
  let pieces: Buffer[] = [];
  let piecesLen = 0;
  // True while walking back through a line longer than MAX_LINE_BYTES: it is skipped, never buffered
  // (the store sets such lines aside; a reader must not build a string of hundreds of megabytes).
  let skipping = false;
  const take = (line: Buffer): void => {
    const record = recordOfLine(line);
    if (record !== null) found.push(record);
  };
  while (pos > 0 && found.length < n) {
    const len = Math.min(chunkSize, pos);
    pos -= len;
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, pos);
    let end = len;
    for (let nl = buf.lastIndexOf(0x0a, end - 1); nl >= 0 && found.length < n; nl = end > 0 ? buf.lastIndexOf(0x0a, end - 1) : -1) {
      if (!skipping) take(joinPieces(buf.subarray(nl + 1, end), pieces, piecesLen));
      skipping = false;
      pieces = [];
      piecesLen = 0;
      end = nl;
    }
    if (found.length >= n) break;
    if (!skipping && end > 0) {
      pieces.push(buf.subarray(0, end));
      piecesLen += end;
    }
    if (piecesLen > MAX_LINE_BYTES) {
      pieces = [];
      piecesLen = 0;
      skipping = true;
    }
  }
  // The file's first line (no newline before it).
  if (pos === 0 && found.length < n && !skipping && piecesLen > 0) take(joinPieces(Buffer.alloc(0), pieces, piecesLen));
  return found.reverse();
}

/** `first` followed by the later pieces (stored newest first). */
function joinPieces(first: Buffer, pieces: readonly Buffer[], piecesLen: number): Buffer {
  if (pieces.length === 0) return first;
  return Buffer.concat([first, ...[...pieces].reverse()], first.length + piecesLen);
}

/** The record a line holds, or null for a blank, bad or not-UTF-8 line (a trailing CR is ignored). */
function recordOfLine(line: Buffer): StoredRecord | null {
  if (!isUtf8(line)) return null;
  const raw = line.toString('utf8');
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (text.trim() === '') return null;
  const parsed = parseJsonlLine(text);
  return parsed.ok ? parsed.record : null;
}

/** Parameters of `getRecent`. */
export interface RecentQuery {
  /** Enhancement mode (per-mode history). */
  readonly mode: string;
  /** How many records at most. */
  readonly n: number;
}

/** Seed selection over raw records (oldest first in, oldest first out): preview-confirmed, same mode, final text ≤ 500 chars, the last `n`. Pure. */
export function selectRecent(records: readonly StoredRecord[], q: RecentQuery): StoredRecord[] {
  const out: StoredRecord[] = [];
  for (let i = records.length - 1; i >= 0 && out.length < q.n; i--) {
    const r = records[i];
    if (!r) continue;
    if (r.enhance_mode !== q.mode || !isPreviewConfirmed(r) || r.final_text.length > MAX_INJECTED_FINAL_CHARS) continue;
    out.push(r);
  }
  return out.reverse();
}

/** The hot-path cache: the last `capacity` raw records of the active file, loaded lazily from its tail. */
export class HotCache {
  private records: StoredRecord[] | null = null;
  private readonly capacity: number;

  /** A cache of `capacity` records (default 200). */
  constructor(capacity = HOT_CACHE_SIZE) {
    this.capacity = capacity;
  }

  /** Whether the cache holds data (a warm cache serves `getRecent` without disk access). */
  get warm(): boolean {
    return this.records !== null;
  }

  /** Loads from the file tail when cold; returns the cached records, oldest first. */
  async ensure(activePath: string): Promise<readonly StoredRecord[]> {
    if (this.records === null) this.records = await readTailRecords(activePath, this.capacity);
    return this.records;
  }

  /** Cached records (oldest first), or null when cold. */
  peek(): readonly StoredRecord[] | null {
    return this.records;
  }

  /** Keeps the cache in step with an append (no-op when cold: the lazy load will see it). */
  onAppend(record: StoredRecord): void {
    if (this.records === null) return;
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
  }

  /** Replaces a cached record after an update of the active file. */
  onUpdate(key: string, record: StoredRecord): void {
    if (this.records === null) return;
    const i = this.records.findIndex((r) => recordKey(r) === key);
    if (i >= 0) this.records[i] = record;
  }

  /** Drops cached records after a delete from the active file. */
  onDelete(keys: ReadonlySet<string>): void {
    if (this.records === null) return;
    this.records = this.records.filter((r) => !keys.has(recordKey(r)));
  }

  /** Forgets everything (rotation, import, clear): the next access reloads from the tail. */
  invalidate(): void {
    this.records = null;
  }
}
