import path from 'node:path';

/** Name of an archive file without extension: a UTC month `YYYY-MM`, or `unknown` for unparseable timestamps. */
export type ArchiveMonth = string;

/** Where every history file lives inside the data folder. */
export interface HistoryPaths {
  /** The data folder itself (directory fsyncs after renames target it). */
  readonly dataDir: string;
  /** The active log, `conversation_history.jsonl` (WenZi's name, so a WenZi folder reads as-is). */
  readonly active: string;
  /** `conversation_history_archives/`, holding `YYYY-MM.jsonl` and `unknown.jsonl`. */
  readonly archivesDir: string;
  /** Path of one archive file, e.g. `archive('2026-03')` or `archive('unknown')`. */
  readonly archive: (month: ArchiveMonth) => string;
  /** Lines that could not be parsed are moved here (original text kept), never silently dropped. */
  readonly quarantine: string;
  /** The derived SQLite index. */
  readonly indexDb: string;
  /** Intent files of multi-file operations (rotation, imports) live here until they are finished. */
  readonly journalDir: string;
}

const MONTH_FILE = /^(\d{4}-(0[1-9]|1[0-2])|unknown)\.jsonl$/;

/** Paths of the history files under `dataDir`. */
export function historyPaths(dataDir: string): HistoryPaths {
  const archivesDir = path.join(dataDir, 'conversation_history_archives');
  return {
    dataDir,
    active: path.join(dataDir, 'conversation_history.jsonl'),
    archivesDir,
    archive: (month) => {
      if (!MONTH_FILE.test(`${month}.jsonl`)) throw new Error(`Invalid archive month: ${JSON.stringify(month)}`);
      return path.join(archivesDir, `${month}.jsonl`);
    },
    quarantine: path.join(dataDir, 'conversation_history.corrupt.jsonl'),
    indexDb: path.join(dataDir, 'index.db'),
    journalDir: path.join(dataDir, 'history-journal'),
  };
}

/** The archive month named by a file name like `2026-03.jsonl` / `unknown.jsonl`, or null for other files. */
export function archiveMonthOfFileName(fileName: string): ArchiveMonth | null {
  const m = MONTH_FILE.exec(fileName);
  return m?.[1] ?? null;
}
