import type { HistoryStore } from '../store/history-store.ts';
import { openRegularFile } from '../store/line-scan.ts';
import { importWenziFolder, listWenziSources, type ImportReport } from './wenzi-import.ts';

/**
 * How a WenZi import brings the index in step: one rule for the app (Settings › Import) and the CLI
 * (`tingxie history import`), both through `HistoryService.importWenzi`. Mirroring the import into the
 * index row by row (FTS triggers per record, index-apply.ts) costs ~126 µs a record on the main thread;
 * the rebuild's bulk load (index-rebuild-worker.ts) costs a fraction of that per record and runs in a
 * worker, but reads what is already indexed too. So an import at least {@link BULK_INDEX_MIN_RECORDS}
 * big and at least half the size of what is indexed stops mirroring, imports, then rebuilds; a smaller
 * one is mirrored row by row as it is written.
 */

/** An import at least this big (and as big as half the history already indexed) rebuilds the index instead of updating it row by row. */
export const BULK_INDEX_MIN_RECORDS = 20_000;

/** How the index took in an import: mirrored as written, rebuilt after it, or caught up on the changed files after it. */
export type ImportIndexing = 'row-by-row' | 'rebuilt' | 'caught-up';

/** What an import did, and how the index took it in. */
export interface WenziImportOutcome {
  readonly report: ImportReport;
  readonly indexing: ImportIndexing;
}

/** What the import needs of the history service. */
export interface ImportIndexHost {
  readonly store: HistoryStore;
  /** Records in the index now; null when there is no usable index (it is rebuilt after the import anyway). */
  indexedRecords(): number | null;
  /** Stops mirroring the store's changes into the index; the files are read back by `rebuildIndex` or `catchUp`. */
  pauseIndex(): void;
  /** Rebuilds the index from the files in its worker (index-rebuild.ts) and resumes mirroring. */
  rebuildIndex(): Promise<void>;
  /** Reads back only the files that changed while mirroring was paused (index-follow.ts) and resumes mirroring. */
  catchUp(): Promise<void>;
}

/** Whether `records` new records are indexed faster by a rebuild than row by row, with `indexed` already in the index. Pure. */
export function rebuildPays(records: number, indexed: number): boolean {
  return records >= BULK_INDEX_MIN_RECORDS && records * 2 >= indexed;
}

/** Bytes read per step while counting lines. */
const COUNT_CHUNK_BYTES = 1024 * 1024;

/** Lines of one file, counted on the bytes (never decoded); 0 when it is not a regular file or cannot be read. */
async function countFileLines(file: string): Promise<number> {
  let fh;
  try {
    fh = await openRegularFile(file);
  } catch {
    return 0; // the import names it as skipped
  }
  try {
    const buf = Buffer.allocUnsafe(COUNT_CHUNK_BYTES);
    let lines = 0;
    let last = 0x0a;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines++;
      last = chunk[bytesRead - 1] ?? 0x0a;
    }
    return last === 0x0a ? lines : lines + 1;
  } catch {
    return 0;
  } finally {
    await fh.close();
  }
}

/**
 * Lines of a WenZi folder's source files: an upper bound of the records an import adds (duplicates and
 * unreadable lines count too), found by reading the bytes once without parsing them — a few hundred
 * milliseconds for a million records, against the minutes a wrong guess costs.
 */
export async function countSourceLines(wenziDir: string): Promise<number> {
  let lines = 0;
  for (const s of (await listWenziSources(wenziDir)).files) lines += await countFileLines(s.file);
  return lines;
}

/**
 * Imports a WenZi folder into `host.store` and brings the index in step by the rule above. Whether to
 * stop mirroring is decided before the import on the line count (an upper bound); whether to rebuild,
 * after it on the records actually imported: a re-import that finds only duplicates then reads back
 * just the files that changed instead of rebuilding everything.
 */
export async function importWenziIndexed(host: ImportIndexHost, wenziDir: string): Promise<WenziImportOutcome> {
  const indexed = host.indexedRecords();
  if (indexed !== null && !rebuildPays(await countSourceLines(wenziDir), indexed)) {
    return { report: await importWenziFolder(host.store, wenziDir), indexing: 'row-by-row' };
  }
  host.pauseIndex();
  let report: ImportReport;
  try {
    report = await importWenziFolder(host.store, wenziDir);
  } catch (err) {
    // Part of it may be on disk already: the index reads the files back before the error is reported.
    await host.rebuildIndex();
    throw err;
  }
  if (indexed === null || rebuildPays(report.imported, indexed)) {
    await host.rebuildIndex();
    return { report, indexing: 'rebuilt' };
  }
  await host.catchUp();
  return { report, indexing: 'caught-up' };
}
