import { HistoryService } from '../../main/history/history-service.ts';
import type { ImportReport } from '../../main/history/import-export/wenzi-import.ts';
import { acquireDataLock, DataDirLockedError } from '../../main/platform/data-lock.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_PARTIAL, type CliContext } from '../types.ts';

/**
 * `tingxie history import` (and the lock and service helpers the other history commands share): the
 * import goes through the history service under the data-folder lock, which brings the index in step by
 * the same rule as the app's import (wenzi-import-indexed.ts).
 */

/** Runs `fn` holding the data-folder lock (released however `fn` ends), refusing with a clear message while another process holds it. */
export async function withLock(ctx: CliContext, fn: () => Promise<number>): Promise<number> {
  let lock;
  try {
    lock = acquireDataLock(ctx.dataDir, { role: 'cli' });
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    ctx.stderr.write(`error: ${err.message}\nThis command changes history, so it cannot run while Tingxie is using the folder; read-only commands (list, search, show, export, stats) still work.\n`);
    return EXIT_ERROR;
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** The history service over `ctx.dataDir` as the CLI uses it (index checked or rebuilt inline, no following). */
export function openHistoryService(ctx: CliContext, readOnly = false): Promise<HistoryService> {
  return HistoryService.open({ dataDir: ctx.dataDir, enabled: true, rebuildInline: true, follow: false, readOnly, warn: (m) => ctx.stderr.write(`warning: ${m}\n`) });
}

/**
 * Imports through the history service (the caller holds the lock), as the app does: the service decides
 * how the index takes the import in (a big one is rebuilt in its worker, a small one mirrored row by
 * row: wenzi-import-indexed.ts) and `settled` waits for that before the command ends.
 */
async function importIndexed(ctx: CliContext, wenziDir: string): Promise<ImportReport> {
  const svc = await openHistoryService(ctx);
  try {
    const { report } = await svc.importWenzi(wenziDir);
    await svc.settled();
    return report;
  } finally {
    await svc.close();
  }
}

/**
 * Names on stderr what the import did not take: source files not read (FIFOs, links, other names…) and
 * unreadable lines with their numbers. Exit 3 when a file was skipped (its records are missing); lines
 * that cannot be read are named but, as before, the import itself is complete (exit 0).
 */
function reportImportProblems(ctx: CliContext, report: ImportReport): number {
  for (const s of report.skipped ?? []) ctx.stderr.write(`error: ${s.path} was not imported: ${s.reason}\n`);
  for (const l of report.unreadable ?? []) ctx.stderr.write(`warning: ${l.path} line ${l.line} was not imported: ${l.reason}\n`);
  const unnamed = report.badLines - (report.unreadable?.length ?? 0);
  if (unnamed > 0) ctx.stderr.write(`warning: ${unnamed} more unreadable line(s) not listed\n`);
  const skipped = report.skipped?.length ?? 0;
  if (skipped > 0) ctx.stderr.write(`${skipped} source file(s) not imported (exit code ${EXIT_PARTIAL})\n`);
  return skipped > 0 ? EXIT_PARTIAL : EXIT_OK;
}

/** Imports a WenZi folder under the lock, prints the report, names what was not imported; the exit code. */
export function runImport(ctx: CliContext, wenziDir: string): Promise<number> {
  return withLock(ctx, async () => {
    const report = await importIndexed(ctx, wenziDir);
    if (ctx.json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else ctx.stdout.write(`imported ${report.imported}, skipped ${report.duplicates} duplicate(s), ${report.badLines} unreadable line(s) left in the source\n`);
    return reportImportProblems(ctx, report);
  });
}
