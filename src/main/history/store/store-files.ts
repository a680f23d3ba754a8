import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { recordKey, type StoredRecord } from '../../../shared/history/record.ts';
import { readLines, rewriteLines, type HistoryLogger } from './jsonl-log.ts';
import type { JsonlLine } from './jsonl-reader.ts';
import { archiveMonthOfFileName, type HistoryPaths } from '../paths.ts';
import type { HistoryFileLabel, RecordPlacement } from './store-types.ts';

/** File-level helpers of the store: which files exist, where a key lives, merging imported lines. */

/** Path of a file label. */
export function pathOfLabel(paths: HistoryPaths, file: HistoryFileLabel): string {
  return file === 'active' ? paths.active : paths.archive(file);
}

/**
 * Labels of all history files that exist: `active` first, then archives in name order. Only regular
 * files count as archives: a folder, FIFO or symbolic link under an archive's name is never opened
 * (the service and the CLI name it as a problem, see history-problems.ts `archiveFolderProblems`).
 */
export async function listFileLabels(paths: HistoryPaths): Promise<HistoryFileLabel[]> {
  let entries: Dirent[] = [];
  try {
    // The entry's own type (lstat-like: a link is a link), so nothing is opened to find out.
    entries = await readdir(paths.archivesDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const months = entries.flatMap((e) => (e.isFile() ? [archiveMonthOfFileName(e.name)] : [])).filter((m): m is string => m !== null);
  return ['active', ...months.sort()];
}

/** A file Tingxie will not rewrite: it holds lines that are not valid UTF-8, which a rewrite could only save changed. */
export class UnrewritableFileError extends Error {
  readonly file: HistoryFileLabel;
  readonly lines: readonly number[];
  constructor(filePath: string, file: HistoryFileLabel, lines: readonly number[]) {
    const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ` and ${lines.length - 10} more` : '');
    super(
      `history: ${filePath} line(s) ${shown} are not valid UTF-8, so Tingxie does not rewrite this file (the line(s) would be saved changed); ` +
        'fix or remove them (e.g. in a text editor, or `iconv -c -f utf-8 -t utf-8`), then try again',
    );
    this.name = 'UnrewritableFileError';
    this.file = file;
    this.lines = lines;
  }
}

/**
 * Refuses to rewrite a file holding lines that are not valid UTF-8. The other bad lines of a rewrite go to
 * the quarantine file as JSON text, which cannot hold those bytes: refusing keeps them byte for byte.
 */
export function assertRewritable(paths: HistoryPaths, file: HistoryFileLabel, lines: readonly JsonlLine[]): void {
  const invalid: number[] = [];
  for (const l of lines) if (l.kind === 'bad' && l.invalidUtf8 === true) invalid.push(l.line);
  if (invalid.length > 0) throw new UnrewritableFileError(pathOfLabel(paths, file), file, invalid);
}

/** A located record with its file's lines, for rewrites. */
export interface Located {
  readonly file: HistoryFileLabel;
  readonly lines: JsonlLine[];
  readonly index: number;
}

/**
 * Finds the file holding `key`: the index's hint first (verified by reading that file), else by scanning
 * active, then archives newest first. Returns the file's lines so the caller can rewrite it.
 */
export async function locateKey(paths: HistoryPaths, key: string, hint: HistoryFileLabel | undefined): Promise<Located | null> {
  const files = await listFileLabels(paths);
  const scan = ['active', ...files.slice(1).reverse()];
  const order = hint && files.includes(hint) ? [hint, ...scan.filter((f) => f !== hint)] : scan;
  for (const file of order) {
    const lines = await readLines(pathOfLabel(paths, file));
    const index = lines.findIndex((l) => l.kind === 'record' && recordKey(l.record) === key);
    if (index >= 0) return { file, lines, index };
  }
  return null;
}

/** Merges imported lines into the active file in timestamp order (atomic rewrite); returns the new record count. */
export async function mergeIntoActive(paths: HistoryPaths, items: readonly RecordPlacement[], nowIso: string): Promise<number> {
  const lines = await readLines(paths.active);
  assertRewritable(paths, 'active', lines);
  const merged: { ts: number; text: string }[] = [];
  for (const l of lines) if (l.kind === 'record') merged.push({ ts: sortTime(l.record.timestamp), text: l.text });
  for (const it of items) merged.push({ ts: sortTime(it.record.timestamp), text: it.text });
  // Stable sort by time; unparseable timestamps keep their place at the front.
  merged.sort((a, b) => a.ts - b.ts);
  await rewriteLines(paths.active, merged.map((m) => m.text), lines, paths.quarantine, 'active', nowIso);
  return merged.length;
}

/** Sort key of a timestamp: unparseable ones first. */
function sortTime(timestamp: string): number {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? -Infinity : t;
}

/**
 * Moves the lines of `file` too long to read to the quarantine file (streamed, never decoded) and
 * rewrites the file without them; other unreadable lines go along, as in any rewrite. Returns how many
 * oversized lines there were (0: the file is untouched).
 */
export async function setAsideOversized(paths: HistoryPaths, file: HistoryFileLabel, nowIso: string): Promise<number> {
  const filePath = pathOfLabel(paths, file);
  const lines = await readLines(filePath);
  const n = lines.filter((l) => l.kind === 'bad' && l.oversized !== undefined).length;
  if (n === 0) return 0;
  assertRewritable(paths, file, lines);
  const texts = lines.flatMap((l) => (l.kind === 'record' ? [l.text] : []));
  await rewriteLines(filePath, texts, lines, paths.quarantine, file, nowIso);
  return n;
}

/** All parseable records of one file, in file order (bad lines are reported through `warn`). */
export async function readFileRecords(paths: HistoryPaths, file: HistoryFileLabel, warn: HistoryLogger): Promise<StoredRecord[]> {
  const lines = await readLines(pathOfLabel(paths, file));
  const bad = lines.filter((l) => l.kind === 'bad').length;
  if (bad) warn(`history: ${bad} unreadable line(s) skipped in ${file}`);
  return lines.flatMap((l) => (l.kind === 'record' ? [l.record] : []));
}

/** Size, mtime and record count of a file (undefined when it does not exist), for the index's start-up check. */
export async function fileStateOf(paths: HistoryPaths, file: HistoryFileLabel): Promise<{ size: number; mtimeMs: number; count: number } | undefined> {
  try {
    const st = await stat(pathOfLabel(paths, file));
    const count = (await readLines(pathOfLabel(paths, file))).filter((l) => l.kind === 'record').length;
    return { size: st.size, mtimeMs: st.mtimeMs, count };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
