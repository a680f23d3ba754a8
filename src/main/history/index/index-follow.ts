import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { recordKey } from '../../../shared/history/record.ts';
import { openRegularSync, READ_FLAGS } from '../../platform/regular-open.ts';
import type { HistoryIndex, IndexedRecord } from './history-index.ts';
import { jsonlLineOfRaw, readJsonlLines, type JsonlLine } from '../store/jsonl-reader.ts';
import { listHistoryFiles, unreadableReason } from './index-sync.ts';
import { decodedLine } from '../store/line-scan.ts';

/**
 * Keeping the index in step with changes other tools make to the JSONL files (WenZi, a script, a
 * sync client). Each file's FileState holds its size, mtime and a fingerprint of its last bytes: a file
 * that grew and still has the same bytes where it used to end was appended to, and only the new tail
 * is read; any other change (rewrite, truncate, a new file) re-reads that one file; a file that
 * vanished loses its records. Never a rebuild of everything.
 */

/** Bytes at the end of a file the fingerprint covers: more than most records, so it holds an id and a timestamp. */
export const TAIL_BYTES = 256;
/** Rows upserted per transaction when a whole file is re-read (the event loop gets a turn in between). */
const REREAD_CHUNK = 2000;

/** Fingerprint of the last TAIL_BYTES of `bytes` (all of them when shorter). */
export function tailFingerprint(bytes: Uint8Array): string {
  const b = bytes.length > TAIL_BYTES ? bytes.subarray(bytes.length - TAIL_BYTES) : bytes;
  return createHash('sha1').update(b).digest('base64');
}

/** Fingerprint of bytes [size − TAIL_BYTES, size) of a file; null when the file is shorter than `size` or cannot be read. */
export function readTailFingerprint(filePath: string, size: number): string | null {
  const len = Math.min(size, TAIL_BYTES);
  const buf = readRange(filePath, size - len, len);
  return buf === null || buf.length < len ? null : tailFingerprint(buf);
}

/** Bytes [from, from + len) of a regular file; null when it cannot be read (or is not a regular file: a FIFO would block the main process). */
function readRange(filePath: string, from: number, len: number): Buffer | null {
  let fd: number | undefined;
  try {
    fd = openRegularSync(filePath, READ_FLAGS);
    const buf = Buffer.alloc(len);
    let got = 0;
    while (got < len) {
      const n = fs.readSync(fd, buf, got, len - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A change to one history file that the index has not seen. */
export type FileChange =
  /** Grown with the old bytes in place: only [from, size) is new. */
  | { readonly kind: 'appended'; readonly file: string; readonly path: string; readonly from: number; readonly size: number; readonly mtimeMs: number }
  /** Rewritten, truncated, or new to the index: the whole file is re-read. */
  | { readonly kind: 'reread'; readonly file: string; readonly path: string }
  /** Gone from disk (an archive deleted): its records leave the index. */
  | { readonly kind: 'vanished'; readonly file: string };

/** Compares every history file with the index's FileState: one stat per file, a small read only for a grown file. */
export function detectChanges(index: HistoryIndex, dataDir: string): FileChange[] {
  const out: FileChange[] = [];
  const seen = new Set<string>();
  for (const f of listHistoryFiles(dataDir)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(f.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (unreadableReason(f.path, st) !== null) {
      seen.add(f.file); // reported by the start-up check; its records (if any) stay until it can be read
      continue;
    }
    seen.add(f.file);
    const state = index.getFileState(f.file);
    if (!state) {
      if (st.size > 0 || index.count(f.file) > 0) out.push({ kind: 'reread', file: f.file, path: f.path });
      continue;
    }
    if (state.size === st.size && state.mtimeMs === st.mtimeMs) continue;
    if (st.size > state.size && state.tail !== undefined && readTailFingerprint(f.path, state.size) === state.tail) {
      out.push({ kind: 'appended', file: f.file, path: f.path, from: state.size, size: st.size, mtimeMs: st.mtimeMs });
      continue;
    }
    // Smaller, same size with a new mtime, or grown over changed bytes: read the file again.
    out.push({ kind: 'reread', file: f.file, path: f.path });
  }
  for (const file of index.files()) {
    if (!seen.has(file)) out.push({ kind: 'vanished', file });
  }
  return out;
}

/** What applying a set of changes did. */
export interface FollowResult {
  /** Files whose index rows changed. */
  readonly files: readonly string[];
  /** Records read from appended tails and re-read files. */
  readonly records: number;
  /** Lines that did not parse (left out of the index, as a rebuild would). */
  readonly badLines: number;
}

/** Applies detected changes to the index (archives first, the active file last, so it wins a key clash as in a rebuild). */
export async function applyChanges(index: HistoryIndex, changes: readonly FileChange[]): Promise<FollowResult> {
  const files: string[] = [];
  let records = 0;
  let badLines = 0;
  const ordered = [...changes.filter((c) => c.file !== 'active'), ...changes.filter((c) => c.file === 'active')];
  for (const c of ordered) {
    if (c.kind === 'vanished') {
      index.transaction(() => {
        index.remove(index.keysOfFile(c.file));
        index.deleteFileState(c.file);
      });
    } else if (c.kind === 'appended') {
      const r = applyAppend(index, c);
      records += r.records;
      badLines += r.bad;
    } else {
      const r = await reread(index, c.file, c.path);
      records += r.records;
      badLines += r.bad;
    }
    files.push(c.file);
  }
  return { files, records, badLines };
}

/** Indexes the complete lines in [from, size); an unterminated last line is taken only when it parses (a writer mid-line is left for later). */
function applyAppend(index: HistoryIndex, c: Extract<FileChange, { kind: 'appended' }>): { records: number; bad: number } {
  const buf = readRange(c.path, c.from, c.size - c.from) ?? Buffer.alloc(0);
  let consumed = buf.lastIndexOf(0x0a) + 1;
  const lines = jsonlLinesOf(buf.subarray(0, consumed));
  if (consumed < buf.length) {
    const rest = jsonlLineOfRaw(decodedLine(buf.subarray(consumed), 1, consumed, false));
    if (rest?.kind === 'record') {
      lines.push(rest);
      consumed = buf.length;
    }
  }
  const rows: IndexedRecord[] = lines.flatMap((l) => (l.kind === 'record' ? [{ key: recordKey(l.record), record: l.record, file: c.file }] : []));
  const size = c.from + consumed;
  const tail = consumed >= Math.min(size, TAIL_BYTES) ? tailFingerprint(buf.subarray(0, consumed)) : readTailFingerprint(c.path, size);
  index.transaction(() => {
    index.upsert(rows);
    index.setFileState(c.file, { size, mtimeMs: c.mtimeMs, count: index.count(c.file), ...(tail === null ? {} : { tail }) });
  });
  return { records: rows.length, bad: lines.length - rows.length };
}

/**
 * The newline-terminated lines of `bytes` as the reader sees them (jsonl-reader.ts `jsonlLineOfRaw`):
 * each line's bytes are checked before it is decoded, so one that is not valid UTF-8 is a bad line,
 * never a record with U+FFFD in its text. Blank lines are dropped; linear in `bytes`.
 */
function jsonlLinesOf(bytes: Buffer): JsonlLine[] {
  const out: JsonlLine[] = [];
  let start = 0;
  let lineNo = 1;
  for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
    const line = jsonlLineOfRaw(decodedLine(bytes.subarray(start, nl), lineNo++, start, true));
    if (line) out.push(line);
    start = nl + 1;
  }
  return out;
}

/** Makes the index's rows of one file match the file: rows it no longer has removed, the rest upserted (unchanged texts are not re-tokenized). */
async function reread(index: HistoryIndex, file: string, filePath: string): Promise<{ records: number; bad: number }> {
  const st = fs.statSync(filePath);
  const { lines, bytes } = await readJsonlLines(filePath);
  const rows: IndexedRecord[] = lines.flatMap((l) => (l.kind === 'record' ? [{ key: recordKey(l.record), record: l.record, file }] : []));
  const present = new Set(rows.map((r) => r.key));
  index.transaction(() => index.remove(index.keysOfFile(file).filter((k) => !present.has(k))));
  for (let i = 0; i < rows.length; i += REREAD_CHUNK) {
    if (i > 0) await nextTurn();
    index.upsert(rows.slice(i, i + REREAD_CHUNK));
  }
  const tail = readTailFingerprint(filePath, bytes);
  index.setFileState(file, { size: bytes, mtimeMs: st.mtimeMs, count: index.count(file), ...(tail === null ? {} : { tail }) });
  return { records: rows.length, bad: lines.length - rows.length };
}
