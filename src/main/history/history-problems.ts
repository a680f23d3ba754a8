import fs from 'node:fs';
import path from 'node:path';
import { archiveMonthOfFileName, historyPaths } from './paths.ts';

/**
 * History that could not be read: a file (an archive name that is a directory, no permission), a line
 * too long to read, lines that are not valid UTF-8, or an entry of the archives folder that is not
 * read (a symbolic link, a name that is not an archive's). Reported to the user (a notice in the app,
 * stderr and a non-zero exit in the CLI); everything else stays visible. Oversized lines are set aside
 * in the quarantine file; invalid UTF-8 stays in its file, byte for byte.
 */
export type HistoryProblem =
  | { readonly kind: 'unreadable'; readonly file: string; readonly path: string; readonly reason: string }
  | { readonly kind: 'oversized'; readonly file: string; readonly path: string; readonly line: number; readonly bytes: number }
  | { readonly kind: 'invalid-utf8'; readonly file: string; readonly path: string; readonly lines: readonly number[] }
  | { readonly kind: 'skipped'; readonly file: string; readonly path: string; readonly reason: string };

/** Why a symbolic link in the archives folder is not read. */
export const SYMLINK_ARCHIVE_REASON = 'a symbolic link: not followed (Tingxie replaces archives by renaming files, which would cut the link); put the file itself here';
/** Why a file of the archives folder with another name is not read. */
export const ODD_ARCHIVE_NAME_REASON = 'not an archive name (YYYY-MM.jsonl or unknown.jsonl): its records are not read; rename it to the month of its records';

/**
 * Entries of an archives folder that are not read, each with why: symbolic links (under any name) and
 * names that are not `YYYY-MM.jsonl` / `unknown.jsonl`. Hidden names (`.DS_Store`, temp files of
 * atomic saves) are not history and are left out. A missing folder has none. Pure but for one readdir.
 */
export function skippedArchiveEntries(archivesDir: string): { readonly name: string; readonly path: string; readonly reason: string }[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(archivesDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
  const out: { name: string; path: string; reason: string }[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const reason = e.isSymbolicLink() ? SYMLINK_ARCHIVE_REASON : archiveMonthOfFileName(e.name) === null ? ODD_ARCHIVE_NAME_REASON : null;
    if (reason !== null) out.push({ name: e.name, path: path.join(archivesDir, e.name), reason });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The data folder's archive entries that are not read, as problems (see {@link skippedArchiveEntries}). */
export function archiveFolderProblems(dataDir: string): HistoryProblem[] {
  return skippedArchiveEntries(historyPaths(dataDir).archivesDir).map((e) => ({ kind: 'skipped', file: e.name, path: e.path, reason: e.reason }));
}

/** Line numbers for a message: the first ten, then how many more. Pure. */
export function lineList(lines: readonly number[]): string {
  return lines.slice(0, 10).join(', ') + (lines.length > 10 ? ` and ${lines.length - 10} more` : '');
}

/** One problem as a line of text (CLI, logs). */
export function describeProblem(p: HistoryProblem): string {
  switch (p.kind) {
    case 'unreadable':
      return `${p.path} could not be read (${p.reason}); its records are not shown`;
    case 'oversized':
      return `${p.path} line ${p.line} is ${p.bytes} bytes, too long to read; it is set aside in conversation_history.corrupt.jsonl`;
    case 'invalid-utf8':
      return `${p.path} line(s) ${lineList(p.lines)} are not valid UTF-8; they are not shown and stay in the file byte for byte (edits and deletes in this file are refused until they are fixed)`;
    case 'skipped':
      return `${p.path} is not read: ${p.reason}`;
    default: {
      const never: never = p;
      return String(never);
    }
  }
}

/** The problems found so far (each reported once, however often it is found again), with listeners. */
export class ProblemLog {
  private list: HistoryProblem[] = [];
  private readonly listeners = new Set<(p: readonly HistoryProblem[]) => void>();
  private readonly warn: (m: string) => void;

  /** Problems are warned through `warn` when first found. */
  constructor(warn: (m: string) => void) {
    this.warn = warn;
  }

  /** Everything found so far. */
  get all(): readonly HistoryProblem[] {
    return this.list;
  }

  /** Subscribes to newly found problems (called with all of them); returns an unsubscribe function. */
  subscribe(listener: (p: readonly HistoryProblem[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds what a check or rebuild found; only new problems are warned and announced. */
  report(found: readonly HistoryProblem[]): void {
    const key = (p: HistoryProblem): string => `${p.kind}\u0000${p.path}\u0000${p.kind === 'oversized' ? p.line : p.kind === 'invalid-utf8' ? p.lines.join(',') : ''}`;
    const known = new Set(this.list.map(key));
    const fresh = found.filter((p) => !known.has(key(p)));
    if (fresh.length === 0) return;
    this.list = [...this.list, ...fresh];
    for (const p of fresh) this.warn(`history: ${describeProblem(p)}`);
    for (const l of this.listeners) {
      try {
        l(this.list);
      } catch (err) {
        this.warn(`history: problem listener failed: ${(err as Error).message}`);
      }
    }
  }
}
