import type { ImportReport } from '../../history/import-export/wenzi-import.ts';
import type { HistoryImportResult, ImportUnreadableFile } from '../../../shared/ipc/settings-types.ts';

/** Line numbers of one file the result names (the rest are counted): enough to find them, short enough to read. */
const NAMED_LINES_PER_FILE = 10;

/** The unreadable lines of a report, grouped by file in the order met. Pure. */
function unreadableByFile(report: ImportReport): ImportUnreadableFile[] {
  const byPath = new Map<string, number[]>();
  for (const l of report.unreadable ?? []) {
    const lines = byPath.get(l.path);
    if (lines) lines.push(l.line);
    else byPath.set(l.path, [l.line]);
  }
  return [...byPath].map(([path, lines]) => ({ path, lines: lines.slice(0, NAMED_LINES_PER_FILE), count: lines.length }));
}

/** An import report as the Settings window receives it: counts, the files not read and where the unreadable lines are. Pure. */
export function historyImportResult(folder: string, report: ImportReport): NonNullable<HistoryImportResult> {
  return {
    path: folder,
    imported: report.imported,
    duplicates: report.duplicates,
    badLines: report.badLines,
    skipped: (report.skipped ?? []).map((s) => ({ path: s.path, cause: s.cause, reason: s.reason })),
    unreadable: unreadableByFile(report),
  };
}
