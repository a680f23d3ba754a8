import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { appendDurable, appendStreamDurable, truncateDurable, writeFileAtomic } from '../../platform/durable-fs.ts';
import { MAX_LINE_BYTES, oversizedReason, parseJsonlLine, readJsonlLines, type JsonlLine, type OversizedLine } from './jsonl-reader.ts';
import { forEachChunk, openRegularFile, scanLines } from './line-scan.ts';

/**
 * File-level primitives shared by the store, rotation and import: tail repair, quarantine,
 * line-preserving rewrites. Every function is durable before it resolves.
 */

/**
 * One line set aside because it could not be read; stored as a JSON line in the quarantine file. A line
 * copied from its file (appendQuarantineFromFile) also carries `bytes` and `sha256`, and `text_base64`
 * instead of `text` when its bytes are not valid UTF-8.
 */
export interface QuarantineEntry {
  /** Which file it came from: `active`, a month like `2026-03`, or `unknown`. */
  readonly source: string;
  readonly reason: string;
  /** The original text of the line, exactly. */
  readonly text: string;
}

/** Warnings go through this so the app can route them to its log and tests can capture them. */
export type HistoryLogger = (message: string) => void;

/**
 * Identities of what the quarantine file already holds: `source NUL text` for ordinary entries and
 * `sha:source NUL sha256` for oversized ones (whose text is never loaded). Streams the file, so a
 * quarantined 150 MB line costs one pass, not a 150 MB string.
 */
async function quarantineKeys(quarantinePath: string): Promise<Set<string>> {
  const seen = new Set<string>();
  for await (const batch of scanLines(quarantinePath)) {
    for (const raw of batch) {
      if (raw.text === null) {
        // Too long to parse: the writer puts source and sha256 before the text, so the head has them.
        const source = /"source":("(?:[^"\\]|\\.)*")/.exec(raw.head)?.[1];
        const sha = /"sha256":"([0-9a-f]{64})"/.exec(raw.head)?.[1];
        if (source !== undefined && sha !== undefined) {
          try {
            seen.add(`sha:${JSON.parse(source) as string}\u0000${sha}`);
          } catch {
            // A mangled head: nothing to match against.
          }
        }
        continue;
      }
      if (!raw.text.trim()) continue;
      try {
        const e = JSON.parse(raw.text) as Partial<QuarantineEntry> & { sha256?: unknown };
        // An entry of bytes that are not UTF-8 has no `text` (only `text_base64`): it matches by sha256 alone.
        if (typeof e.text === 'string') seen.add(`${e.source}\u0000${e.text}`);
        if (typeof e.sha256 === 'string') seen.add(`sha:${e.source}\u0000${e.sha256}`);
      } catch {
        // A torn quarantine line: ignore, it holds nothing we could match against.
      }
    }
  }
  return seen;
}

/**
 * Appends entries to the quarantine file, skipping ones whose (source, text) is already there:
 * a crash between quarantining and the rewrite that follows would otherwise duplicate them on retry.
 */
export async function appendQuarantine(quarantinePath: string, entries: readonly QuarantineEntry[], nowIso: string): Promise<number> {
  if (entries.length === 0) return 0;
  const seen = await quarantineKeys(quarantinePath);
  const fresh = entries.filter((e) => !seen.has(`${e.source}\u0000${e.text}`));
  if (fresh.length === 0) return 0;
  const body = fresh.map((e) => JSON.stringify({ quarantined_at: nowIso, source: e.source, reason: e.reason, text: e.text })).join('\n');
  // Lead with a newline when the quarantine file itself has a torn tail, so entries never glue.
  const prefix = (await endsWithoutNewline(quarantinePath)) ? '\n' : '';
  await appendDurable(quarantinePath, `${prefix}${body}\n`);
  return fresh.length;
}

/** Why a line that is not valid UTF-8 was set aside (the reader's reason says it stays in its file, which it no longer does). */
export const QUARANTINED_INVALID_UTF8_REASON = 'not valid UTF-8 (its exact bytes are kept in text_base64)';

/** One line to set aside by copying it from its file (too long to load, or not valid UTF-8): where it is in which file. */
export interface LocatedEntry extends OversizedLine {
  readonly source: string;
  readonly reason: string;
  /** The file holding the line. */
  readonly file: string;
}

/** The sha256 of a located line, and whether its bytes are valid UTF-8: one streamed pass, linear in the line. */
async function hashAndCheck(e: LocatedEntry): Promise<{ sha256: string; utf8: boolean }> {
  const hash = createHash('sha256');
  // fatal: throws at the first invalid sequence instead of substituting U+FFFD (https://encoding.spec.whatwg.org/#dom-textdecoder-fatal).
  const check = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let utf8 = true;
  await forEachChunk(e.file, e.offset, e.bytes, (c) => {
    hash.update(c);
    if (!utf8) return;
    try {
      check.decode(c, { stream: true });
    } catch {
      utf8 = false;
    }
  });
  if (utf8) {
    try {
      check.decode();
    } catch {
      utf8 = false; // the line ends inside a multi-byte sequence
    }
  }
  return { sha256: hash.digest('hex'), utf8 };
}

/** Writes a located line's bytes as the body of a JSON string: escaped text when it is UTF-8, else base64 (which JSON text can hold exactly). */
async function writeLineBody(e: LocatedEntry, utf8: boolean, write: (data: string) => Promise<void>): Promise<void> {
  if (utf8) {
    const decoder = new StringDecoder('utf8');
    // JSON.stringify of each decoded piece, without its quotes: the escaped text, piece by piece.
    await forEachChunk(e.file, e.offset, e.bytes, async (c) => write(JSON.stringify(decoder.write(c)).slice(1, -1)));
    await write(JSON.stringify(decoder.end()).slice(1, -1));
    return;
  }
  // Base64 works on groups of 3 bytes: up to 2 bytes wait for the next chunk.
  let carry = Buffer.alloc(0);
  await forEachChunk(e.file, e.offset, e.bytes, async (c) => {
    const data = carry.length ? Buffer.concat([carry, c]) : c;
    const whole = data.length - (data.length % 3);
    carry = Buffer.from(data.subarray(whole));
    await write(data.subarray(0, whole).toString('base64'));
  });
  await write(carry.toString('base64'));
}

/**
 * Sets lines aside in the quarantine file by copying them from their file, streamed (hashed in a first
 * pass for the de-duplication, copied in a second): memory stays at one read buffer. The entry reads like
 * the others plus `bytes` and `sha256`, which come before the line. A line that is valid UTF-8 is kept as
 * `text`; one that is not is kept as `text_base64`, its exact bytes: a JSON string can only hold text, and
 * decoding would turn the bytes into U+FFFD for good.
 */
export async function appendQuarantineFromFile(quarantinePath: string, entries: readonly LocatedEntry[], nowIso: string): Promise<number> {
  if (entries.length === 0) return 0;
  const seen = await quarantineKeys(quarantinePath);
  let added = 0;
  for (const e of entries) {
    const { sha256, utf8 } = await hashAndCheck(e);
    const id = `sha:${e.source}\u0000${sha256}`;
    if (seen.has(id)) continue;
    const prefix = (await endsWithoutNewline(quarantinePath)) ? '\n' : '';
    const head = JSON.stringify({ quarantined_at: nowIso, source: e.source, reason: e.reason, bytes: e.bytes, sha256 });
    await appendStreamDurable(quarantinePath, async (write) => {
      await write(`${prefix}${head.slice(0, -1)},"${utf8 ? 'text' : 'text_base64'}":"`);
      await writeLineBody(e, utf8, write);
      await write('"}\n');
    });
    seen.add(id);
    added++;
  }
  return added;
}

/** Result of checking a file's last line before appending to it. */
export type TailRepair =
  | { readonly kind: 'clean' }
  /** The unterminated last line was a complete record: only the newline was missing, so it was added. */
  | { readonly kind: 'newline-added' }
  /** The unterminated last line was unparseable: moved to quarantine and truncated away. */
  | { readonly kind: 'quarantined'; readonly text: string; readonly reason: string };

/**
 * Makes sure `filePath` ends with a newline so the next append starts on its own line: a torn last
 * line is quarantined (text kept) and cut off; a complete record merely missing its newline gets one.
 * Reads only the tail of the file, backwards in chunks.
 */
export async function repairTail(filePath: string, quarantinePath: string, source: string, nowIso: string): Promise<TailRepair> {
  let fh;
  try {
    // Only a regular file: a FIFO swapped in for the active file would block a plain open (see regular-open.ts).
    fh = await openRegularFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'clean' };
    throw err;
  }
  let tail: Buffer | null;
  let lineStart: number;
  let size: number;
  try {
    size = (await fh.stat()).size;
    if (size === 0) return { kind: 'clean' };
    const last = Buffer.alloc(1);
    await fh.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return { kind: 'clean' };
    // Walk back to the previous '\n' (byte search is safe: 0x0A never occurs inside a UTF-8 sequence).
    const chunks: Buffer[] = [];
    let kept = 0;
    let pos = size;
    lineStart = 0;
    const CHUNK = 64 * 1024;
    while (pos > 0) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      await fh.read(buf, 0, len, pos);
      const nl = buf.lastIndexOf(0x0a);
      const part = nl >= 0 ? buf.subarray(nl + 1) : buf;
      // A torn line longer than the limit is located, never held: it is copied to quarantine below.
      if (kept + part.length <= MAX_LINE_BYTES) chunks.unshift(part);
      kept += part.length;
      if (nl >= 0) {
        lineStart = pos + nl + 1;
        break;
      }
    }
    tail = kept > MAX_LINE_BYTES ? null : Buffer.concat(chunks);
  } finally {
    await fh.close();
  }
  // A torn line too long to hold, or cut inside a multi-byte character (an interrupted append can stop
  // anywhere): copied byte for byte from the file, never decoded (see appendQuarantineFromFile).
  if (tail === null || !isUtf8(tail)) {
    const reason = `torn tail: ${tail === null ? oversizedReason(size - lineStart) : QUARANTINED_INVALID_UTF8_REASON}`;
    await appendQuarantineFromFile(quarantinePath, [{ source, reason, file: filePath, offset: lineStart, bytes: size - lineStart }], nowIso);
    await truncateDurable(filePath, lineStart);
    return { kind: 'quarantined', text: '', reason };
  }
  const text = tail.toString('utf8');
  const parsed = text.trim() === '' ? null : parseJsonlLine(text.endsWith('\r') ? text.slice(0, -1) : text);
  if (parsed?.ok) {
    await appendDurable(filePath, '\n');
    return { kind: 'newline-added' };
  }
  const reason = parsed ? `torn tail: ${parsed.reason}` : 'torn tail: blank or NUL-only';
  // Quarantine first, then truncate: a crash in between only repeats the (deduplicated) quarantine.
  await appendQuarantine(quarantinePath, [{ source, reason, text }], nowIso);
  await truncateDurable(filePath, lineStart);
  return { kind: 'quarantined', text, reason };
}

/** Reads a whole JSONL file as raw lines (missing = empty), streaming: oversized lines come back as bad lines that say where they are. */
export async function readLines(filePath: string): Promise<JsonlLine[]> {
  return (await readJsonlLines(filePath)).lines;
}

/**
 * Atomically rewrites a JSONL file with the given record lines; the file's bad lines (`dropped`) go to
 * quarantine first, so a rewrite never silently loses text from disk. Lines too long to load and lines
 * that are not valid UTF-8 are copied there from the file byte for byte (their `text` is only a head or
 * holds U+FFFD), so `filePath` must still be the file `dropped` was read from.
 */
export async function rewriteLines(
  filePath: string,
  texts: readonly string[],
  dropped: readonly JsonlLine[],
  quarantinePath: string,
  source: string,
  nowIso: string,
): Promise<void> {
  const bad: QuarantineEntry[] = [];
  const located: LocatedEntry[] = [];
  const invalid = new Map<number, string>();
  for (const l of dropped) {
    if (l.kind !== 'bad') continue;
    // An oversized line's text was never loaded: it is copied from the file before the file is replaced.
    if (l.oversized) located.push({ ...l.oversized, source, reason: l.reason, file: filePath });
    else if (l.invalidUtf8 === true) invalid.set(l.line, QUARANTINED_INVALID_UTF8_REASON);
    else bad.push({ source, reason: l.reason, text: l.text });
  }
  if (invalid.size > 0) located.push(...(await locateLines(filePath, invalid, source)));
  await appendQuarantine(quarantinePath, bad, nowIso);
  await appendQuarantineFromFile(quarantinePath, located, nowIso);
  await writeFileAtomic(filePath, texts.length ? `${texts.join('\n')}\n` : '');
}

/**
 * Where the lines numbered in `reasons` (lines that are not valid UTF-8) are in `filePath`: one streamed
 * pass. Throws, before anything is written, when one of them is not there any more (the file changed).
 */
async function locateLines(filePath: string, reasons: ReadonlyMap<number, string>, source: string): Promise<LocatedEntry[]> {
  const out: LocatedEntry[] = [];
  for await (const batch of scanLines(filePath)) {
    for (const raw of batch) {
      const reason = reasons.get(raw.line);
      if (reason !== undefined && raw.invalidUtf8 === true) out.push({ source, reason, file: filePath, offset: raw.offset, bytes: raw.bytes });
    }
  }
  if (out.length !== reasons.size) throw new Error(`history: ${filePath} changed while it was being rewritten (lines that are not valid UTF-8 moved); nothing was written`);
  return out;
}

/** A file's text, or '' when it does not exist. */
export async function readTextOrEmpty(filePath: string): Promise<string> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Whether a file is non-empty and does not end with a newline (false when missing). */
export async function endsWithoutNewline(filePath: string): Promise<boolean> {
  let fh;
  try {
    fh = await openRegularFile(filePath);
  } catch {
    return false;
  }
  try {
    const size = (await fh.stat()).size;
    if (size === 0) return false;
    const b = Buffer.alloc(1);
    await fh.read(b, 0, 1, size - 1);
    return b[0] !== 0x0a;
  } finally {
    await fh.close();
  }
}
