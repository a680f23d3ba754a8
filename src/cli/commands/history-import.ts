import fs from 'node:fs';
import { HistoryIndex, removeIndexFiles } from '../../main/history/history-index.ts';
import { HistoryService } from '../../main/history/history-service.ts';
import { HistoryStore } from '../../main/history/history-store.ts';
import { historyPaths } from '../../main/history/paths.ts';
import { importWenziFolder, type ImportReport } from '../../main/history/wenzi-import.ts';
import { acquireDataLock, DataDirLockedError } from '../../main/platform/data-lock.ts';
import { EXIT_ERROR, EXIT_OK, EXIT_PARTIAL, type CliContext } from '../types.ts';

/**
 * `tingxie history import` (and the lock and service helpers the other history commands share): the
 * import goes into the store under the data-folder lock, then the index is brought in step: rebuilt in
 * its worker after a big import, caught up by the service's start-up check after a small one.
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

/** An import at least this big (and as big as half the history already indexed) rebuilds the index instead of updating it row by row. */
const BULK_INDEX_MIN_RECORDS = 20_000;

/** Records the index of `dataDir` holds now (0 when it is missing or unusable: it is rebuilt then anyway). */
function indexedRecords(dataDir: string): number {
  const dbPath = historyPaths(dataDir).indexDb;
  if (!fs.existsSync(dbPath)) return 0;
  try {
    const index = HistoryIndex.open(dbPath);
    try {
      return index.count();
    } finally {
      index.close();
    }
  } catch {
    return 0;
  }
}

/**
 * Imports into the store, then brings the index in step (the caller holds the lock). Updating the index
 * row by row (FTS triggers per record) costs several times what the rebuild's bulk load does per record, so a big
 * import (compared with what is indexed) drops the derived index and has the service rebuild it in its
 * worker; a small one is taken in by the service's start-up check, which reads only what changed.
 */
async function importIndexed(ctx: CliContext, wenziDir: string): Promise<ImportReport> {
  const before = indexedRecords(ctx.dataDir);
  const store = await HistoryStore.open({ dataDir: ctx.dataDir, warn: (m) => ctx.stderr.write(`warning: ${m}\n`) });
  let report: ImportReport;
  try {
    report = await importWenziFolder(store, wenziDir);
  } finally {
    await store.close();
  }
  if (report.imported >= BULK_INDEX_MIN_RECORDS && report.imported * 2 >= before) removeIndexFiles(historyPaths(ctx.dataDir).indexDb);
  const svc = await openHistoryService(ctx);
  await svc.settled();
  await svc.close();
  return report;
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
