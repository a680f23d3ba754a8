import { open, readFile } from 'node:fs/promises';
import { appendDurable, truncateDurable, writeFileAtomic } from '../platform/durable-fs.ts';
import { parseJsonlLine, parseJsonlLines, type JsonlLine } from './jsonl-reader.ts';

/**
 * File-level primitives shared by the store, rotation and import: tail repair, quarantine,
 * line-preserving rewrites. Every function is durable before it resolves.
 */

/** One line set aside because it could not be read; stored as a JSON line in the quarantine file. */
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
 * Appends entries to the quarantine file, skipping ones whose (source, text) is already there:
 * a crash between quarantining and the rewrite that follows would otherwise duplicate them on retry.
 */
export async function appendQuarantine(quarantinePath: string, entries: readonly QuarantineEntry[], nowIso: string): Promise<number> {
  if (entries.length === 0) return 0;
  const seen = new Set<string>();
  for (const line of (await readTextOrEmpty(quarantinePath)).split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<QuarantineEntry>;
      seen.add(`${e.source}\u0000${e.text}`);
    } catch {
      // A torn quarantine line: ignore, it holds nothing we could match against.
    }
  }
  const fresh = entries.filter((e) => !seen.has(`${e.source}\u0000${e.text}`));
  if (fresh.length === 0) return 0;
  const body = fresh.map((e) => JSON.stringify({ quarantined_at: nowIso, source: e.source, reason: e.reason, text: e.text })).join('\n');
  // Lead with a newline when the quarantine file itself has a torn tail, so entries never glue.
  const prefix = (await endsWithoutNewline(quarantinePath)) ? '\n' : '';
  await appendDurable(quarantinePath, `${prefix}${body}\n`);
  return fresh.length;
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
    fh = await open(filePath, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'clean' };
    throw err;
  }
  let tail: Buffer;
  let lineStart: number;
  try {
    const size = (await fh.stat()).size;
    if (size === 0) return { kind: 'clean' };
    const last = Buffer.alloc(1);
    await fh.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return { kind: 'clean' };
    // Walk back to the previous '\n' (byte search is safe: 0x0A never occurs inside a UTF-8 sequence).
    const chunks: Buffer[] = [];
    let pos = size;
    lineStart = 0;
    const CHUNK = 64 * 1024;
    while (pos > 0) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      await fh.read(buf, 0, len, pos);
      const nl = buf.lastIndexOf(0x0a);
      if (nl >= 0) {
        chunks.unshift(buf.subarray(nl + 1));
        lineStart = pos + nl + 1;
        break;
      }
      chunks.unshift(buf);
    }
    tail = Buffer.concat(chunks);
  } finally {
    await fh.close();
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

/** Reads a whole JSONL file as raw lines (missing = empty). */
export async function readLines(filePath: string): Promise<JsonlLine[]> {
  return parseJsonlLines(await readTextOrEmpty(filePath));
}

/**
 * Atomically rewrites a JSONL file with the given record lines; the file's bad lines (`dropped`) go to
 * quarantine first, so a rewrite never silently loses text from disk.
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
  for (const l of dropped) if (l.kind === 'bad') bad.push({ source, reason: l.reason, text: l.text });
  await appendQuarantine(quarantinePath, bad, nowIso);
  await writeFileAtomic(filePath, texts.length ? `${texts.join('\n')}\n` : '');
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

async function endsWithoutNewline(filePath: string): Promise<boolean> {
  let fh;
  try {
    fh = await open(filePath, 'r');
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
