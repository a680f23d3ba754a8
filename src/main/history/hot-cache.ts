import { open } from 'node:fs/promises';
import { isPreviewConfirmed, recordKey, type StoredRecord } from '../../shared/history/record.ts';
import { MAX_LINE_BYTES, parseJsonlLine } from './jsonl-reader.ts';

/** Seed: the hot path keeps the last 200 raw records. */
export const HOT_CACHE_SIZE = 200;
/** Seed: final texts longer than this (large clipboard enhancements) are never injected. */
export const MAX_INJECTED_FINAL_CHARS = 500;

/**
 * Reads the last `n` parseable records of a JSONL file by reading backwards in chunks, never the
 * whole file. Bad lines are skipped (they do not count towards `n`); an unterminated last line that
 * does not parse is ignored (the store repairs it before appending).
 */
export async function readTailRecords(filePath: string, n: number, chunkSize = 64 * 1024): Promise<StoredRecord[]> {
  let fh;
  try {
    fh = await open(filePath, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  try {
    let pos = (await fh.stat()).size;
    const found: StoredRecord[] = []; // newest first
    // Bytes of the (possibly incomplete) first line of what has been read so far.
    let carry = Buffer.alloc(0);
    // True while walking back through a line longer than MAX_LINE_BYTES: it is skipped, never buffered
    // (the store sets such lines aside; a reader must not build a string of hundreds of megabytes).
    let skipping = false;
    while (pos > 0 && found.length < n) {
      const len = Math.min(chunkSize, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      await fh.read(buf, 0, len, pos);
      let data = Buffer.concat([buf, carry]);
      // Complete lines are those after the first '\n' in `data` (or all of it at the file start).
      let end = data.length;
      for (let i = data.length - 1; i >= -1 && found.length < n; i--) {
        if (i >= 0 && data[i] !== 0x0a) continue;
        if (i === -1 && pos > 0) break; // the line may continue in the previous chunk
        if (skipping) {
          skipping = false;
          end = i;
          continue;
        }
        const lineText = data.subarray(i + 1, end).toString('utf8').replace(/\r$/, '');
        end = i;
        if (lineText.trim() === '') continue;
        const parsed = parseJsonlLine(lineText);
        if (parsed.ok) found.push(parsed.record);
      }
      carry = data.subarray(0, Math.max(end, 0));
      if (carry.length > MAX_LINE_BYTES) {
        carry = Buffer.alloc(0);
        skipping = true;
      }
      data = Buffer.alloc(0);
    }
    return found.reverse();
  } finally {
    await fh.close();
  }
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
