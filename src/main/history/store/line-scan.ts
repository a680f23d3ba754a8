import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { openRegular, READ_FLAGS } from '../../platform/regular-open.ts';

/**
 * Streams a file's lines without ever holding more than one line (up to a limit) and one read buffer
 * in memory. A line longer than the limit is not decoded: it is reported with its offset and length
 * (and its first bytes), so a 150 MB line costs one pass over the disk, not gigabytes of strings.
 * Splitting on the byte 0x0A is safe in UTF-8 (it never occurs inside a multi-byte sequence).
 * Only regular files are read: a FIFO would block the open (man 7 fifo), a device may never end, and a
 * symbolic link is not followed (Tingxie replaces its files by rename, which would silently cut the link).
 */

/** Lines longer than this (bytes, without the newline) are "oversized": never decoded or parsed. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/** Bytes read per step. */
const CHUNK_BYTES = 1024 * 1024;
/** How much of an oversized line is kept (decoded) so callers can show or match its start. */
const HEAD_BYTES = 4096;

/** One line of a file. */
export interface RawLine {
  /** 1-based line number (blank lines count). */
  readonly line: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Length in bytes, without the newline. */
  readonly bytes: number;
  /** The line as text (a trailing `\r` removed), or null when it is longer than the limit. */
  readonly text: string | null;
  /** The first bytes of an oversized line, decoded (a cut character at the end may show as U+FFFD); '' otherwise. */
  readonly head: string;
  /** False for a last line with no newline after it. */
  readonly terminated: boolean;
  /** True when the line's bytes are not valid UTF-8 (`text` then shows U+FFFD where they were: never write it back). */
  readonly invalidUtf8?: boolean;
}

export { NotRegularFileError, nonRegularKind } from '../../platform/regular-open.ts';

/**
 * Opens a file for reading only when it is a regular file: checked with lstat before the open (so a FIFO
 * or device is never opened) and with fstat after it (the path may have been swapped in between).
 * A missing file rejects with ENOENT; anything else that is not a regular file with {@link NotRegularFileError}.
 */
export function openRegularFile(filePath: string): Promise<FileHandle> {
  return openRegular(filePath, READ_FLAGS);
}

/** Options of {@link scanLines}. */
export interface ScanOptions {
  readonly maxLineBytes?: number;
  readonly chunkBytes?: number;
  /** Stop after this many bytes of the file (a snapshot of a file that is being appended to). */
  readonly limit?: number;
}

/**
 * Yields the lines of `filePath` in batches (one per read), in file order. A missing file yields
 * nothing; any other error (not a regular file, no permission) is thrown to the caller.
 */
export async function* scanLines(filePath: string, opts: ScanOptions = {}): AsyncGenerator<RawLine[]> {
  let fh: FileHandle;
  try {
    fh = await openRegularFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    yield* scanHandle(fh, opts);
  } finally {
    await fh.close();
  }
}

/** {@link scanLines} over an open handle (from position 0). */
export async function* scanHandle(fh: FileHandle, opts: ScanOptions = {}): AsyncGenerator<RawLine[]> {
  const max = opts.maxLineBytes ?? MAX_LINE_BYTES;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const buf = Buffer.allocUnsafe(opts.chunkBytes ?? CHUNK_BYTES);
  // The current line: its parts (while under the limit), its length, and its start.
  let parts: Buffer[] = [];
  let partsLen = 0;
  let lineStart = 0;
  let head: Buffer | null = null;
  let lineNo = 1;
  let pos = 0;
  const finish = (end: number, terminated: boolean): RawLine => {
    const bytes = end - lineStart;
    let line: RawLine;
    if (head !== null) {
      line = { line: lineNo, offset: lineStart, bytes, text: null, head: head.toString('utf8'), terminated };
    } else {
      const data = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, partsLen);
      line = decodedLine(data, lineNo, lineStart, terminated);
    }
    parts = [];
    partsLen = 0;
    head = null;
    lineNo++;
    return line;
  };
  const add = (seg: Buffer): void => {
    if (seg.length === 0) return;
    if (head !== null) return; // already oversized: only its length matters
    if (partsLen + seg.length > max) {
      const kept = parts.length ? Buffer.concat([...parts, seg], partsLen + seg.length) : seg;
      head = Buffer.from(kept.subarray(0, HEAD_BYTES));
      parts = [];
      partsLen = 0;
      return;
    }
    // A copy: `buf` is reused by the next read.
    parts.push(Buffer.from(seg));
    partsLen += seg.length;
  };
  while (pos < limit) {
    const want = Math.min(buf.length, limit - pos);
    const { bytesRead } = await fh.read(buf, 0, want, pos);
    if (bytesRead === 0) break;
    const data = buf.subarray(0, bytesRead);
    const out: RawLine[] = [];
    let start = 0;
    for (let nl = data.indexOf(0x0a, start); nl >= 0; nl = data.indexOf(0x0a, start)) {
      if (parts.length === 0 && head === null && nl - start <= max) {
        // Fast path: the whole line is inside this read (no copy until it is decoded).
        out.push(decodedLine(data.subarray(start, nl), lineNo++, pos + start, true));
      } else {
        add(data.subarray(start, nl));
        out.push(finish(pos + nl, true));
      }
      start = nl + 1;
      lineStart = pos + start;
    }
    add(data.subarray(start));
    pos += bytesRead;
    if (out.length) yield out;
  }
  if (pos > lineStart) yield [finish(pos, false)];
}

/**
 * One line under the limit, decoded. Its bytes are checked first: Buffer#toString would silently turn
 * invalid UTF-8 into U+FFFD (https://nodejs.org/api/buffer.html#bufisutf8input does the strict check
 * in one native pass, as a fatal TextDecoder would: https://nodejs.org/api/util.html#class-utiltextdecoder).
 */
export function decodedLine(data: Buffer, line: number, offset: number, terminated: boolean): RawLine {
  const raw = data.toString('utf8');
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const base = { line, offset, bytes: data.length, text, head: '', terminated };
  return isUtf8(data) ? base : { ...base, invalidUtf8: true };
}

/** Reads `bytes` bytes at `offset` of a file in chunks, calling `onChunk` for each (for copying oversized lines). */
export async function forEachChunk(filePath: string, offset: number, bytes: number, onChunk: (chunk: Buffer) => Promise<void> | void): Promise<void> {
  const fh = await openRegularFile(filePath);
  try {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(bytes, 1)));
    for (let done = 0; done < bytes; ) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, bytes - done), offset + done);
      if (bytesRead === 0) throw new Error(`${filePath} is shorter than expected (${offset + done} of ${offset + bytes} bytes)`);
      await onChunk(buf.subarray(0, bytesRead));
      done += bytesRead;
    }
  } finally {
    await fh.close();
  }
}
