import fs from 'node:fs';
import path from 'node:path';
import { readJsonlFile } from '../store/jsonl-reader.ts';
import { archiveMonthOfFileName, historyPaths } from '../paths.ts';
import { HistoryIndex, IndexUnusableError } from './history-index.ts';
import { archiveFolderProblems, type HistoryProblem } from '../history-problems.ts';

/**
 * Start-up consistency check between index.db and the JSONL files it is derived from. Cheap in the
 * common case (one stat per file); a file is re-read only when its size matches but its mtime moved.
 */

/** One JSONL history file and the label the index stores for it. */
export interface HistoryFile {
  /** 'active' | 'YYYY-MM' | 'unknown' */
  readonly file: string;
  readonly path: string;
}

/** Result of the start-up check. */
export type IndexCheck = 'ok' | 'missing' | 'corrupt' | { readonly stale: readonly string[] };

/**
 * The active file plus every archive, archives first in chronological (file-name) order. A symbolic link
 * under an archive's name is left out, as the rebuild leaves it out (history-problems.ts
 * `skippedArchiveEntries` names it): listed, it looked new to every start-up check and follow, whose
 * read of it is refused (line-scan.ts), so at every start the app gave up index.db for a temporary index.
 */
export function listHistoryFiles(dataDir: string): HistoryFile[] {
  const p = historyPaths(dataDir);
  const out: HistoryFile[] = [];
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(p.archivesDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const names = entries.filter((e) => !e.isSymbolicLink()).map((e) => e.name);
  const months = names.map((n) => archiveMonthOfFileName(n)).filter((m): m is string => m !== null);
  // 'unknown' sorts after digits, but its records carry no time: read it first so later files win on key clashes.
  months.sort((a, b) => (a === 'unknown' ? -1 : b === 'unknown' ? 1 : a.localeCompare(b)));
  for (const m of months) out.push({ file: m, path: path.join(p.archivesDir, `${m}.jsonl`) });
  out.push({ file: 'active', path: p.active });
  return out;
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Compares the index's FileState entries with the files on disk. Pass an open index, or the path of
 * index.db to have it opened (and closed) here: 'missing' when there is no usable index content yet,
 * 'corrupt' when it cannot be opened or read, `{ stale }` naming the files whose records must be re-read.
 */
export async function checkIndexAgainstFiles(index: HistoryIndex | string, dataDir: string, problems?: HistoryProblem[]): Promise<IndexCheck> {
  let idx: HistoryIndex;
  if (typeof index === 'string') {
    if (!fs.existsSync(index)) return hasAnyRecords(dataDir) ? 'missing' : 'ok';
    try {
      idx = HistoryIndex.open(index);
    } catch (err) {
      if (err instanceof IndexUnusableError) return 'corrupt';
      throw err;
    }
  } else {
    idx = index;
  }
  try {
    // Links and names that are not archives' are never read: said at every start (one readdir), not only after a rebuild.
    problems?.push(...archiveFolderProblems(dataDir));
    if (idx.createdFresh && idx.files().length === 0) return hasAnyRecords(dataDir) ? 'missing' : 'ok';
    const stale: string[] = [];
    const onDisk = listHistoryFiles(dataDir);
    const seen = new Set<string>();
    for (const f of onDisk) {
      const st = statOrNull(f.path);
      const state = idx.getFileState(f.file);
      if (st === null) continue; // handled below as a vanished file when the index knows it
      const unreadable = unreadableReason(f.path, st);
      if (unreadable !== null) {
        // Reported on every start (it hides records); not stale: a rebuild could not read it either.
        problems?.push({ kind: 'unreadable', file: f.file, path: f.path, reason: unreadable });
        continue;
      }
      seen.add(f.file);
      if (!state) {
        if (st.size > 0) stale.push(f.file);
        continue;
      }
      if (state.size !== st.size) {
        stale.push(f.file);
        continue;
      }
      if (state.mtimeMs !== st.mtimeMs) {
        // Same size, new mtime (touched, copied back, rewritten in place): count to decide.
        const read = await readJsonlFile(f.path).catch(() => null);
        if (read?.records.length !== state.count) stale.push(f.file);
      }
    }
    for (const file of idx.files()) {
      if (!seen.has(file) && (idx.count(file) > 0 || (idx.getFileState(file)?.count ?? 0) > 0)) stale.push(file);
    }
    return stale.length === 0 ? 'ok' : { stale };
  } catch (err) {
    if (err instanceof IndexUnusableError) return 'corrupt';
    throw err;
  } finally {
    if (typeof index === 'string') idx.close();
  }
}

function hasAnyRecords(dataDir: string): boolean {
  return listHistoryFiles(dataDir).some((f) => {
    const st = statOrNull(f.path);
    return st !== null && st.isFile() && st.size > 0;
  });
}

/** Why a history file cannot be read (not a regular file, no permission), or null when it can. Cheap: no read. */
export function unreadableReason(filePath: string, st: fs.Stats): string | null {
  if (st.isDirectory()) return 'EISDIR: it is a folder, not a file';
  if (!st.isFile()) return 'not a regular file';
  try {
    fs.accessSync(filePath, fs.constants.R_OK);
  } catch (err) {
    return `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${(err as Error).message}`;
  }
  return null;
}
