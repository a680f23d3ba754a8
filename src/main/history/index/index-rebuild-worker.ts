import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { StoredRecord } from '../../../shared/history/record.ts';
import { readJsonlBatches } from '../store/jsonl-reader.ts';
import { archiveFolderProblems, type HistoryProblem } from '../history-problems.ts';
import { HistoryIndex } from './history-index.ts';
import { toIndexed } from './index-schema.ts';
import { listHistoryFiles } from './index-sync.ts';
import { readTailFingerprint } from './index-follow.ts';

/**
 * Worker thread body of `rebuildIndex`: reads every JSONL file (archives first, then the active file, so
 * the newest copy of a key wins like a replay), bulk-loads the base tables of a fresh index file in
 * large transactions (no FTS triggers), then builds both FTS tables in one pass each and merges their
 * segments. Only small progress messages cross to the main thread. The caller swaps the file into place.
 */

/** Input of the worker. */
export interface RebuildWorkerInput {
  readonly dataDir: string;
  readonly tmpPath: string;
  readonly batchSize: number;
}

/** Messages the worker posts. */
export type RebuildWorkerMessage =
  | { readonly type: 'progress'; readonly phase: 'reading' | 'indexing' | 'optimizing'; readonly filesDone: number; readonly filesTotal: number; readonly records: number }
  | {
      readonly type: 'done';
      readonly records: number;
      readonly files: number;
      readonly badLines: number;
      readonly tornTails: number;
      /** Files that could not be read and lines too long to read: reported, the rest is indexed. */
      readonly problems: readonly HistoryProblem[];
    }
  | { readonly type: 'error'; readonly message: string };

async function run(input: RebuildWorkerInput): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('index-rebuild-worker must run in a worker thread');
  const index = HistoryIndex.open(input.tmpPath, { bulkLoad: true });
  index.beginBulkLoad();
  const files = listHistoryFiles(input.dataDir);
  let records = 0;
  let badLines = 0;
  let tornTails = 0;
  let filesDone = 0;
  // Links and names that are not archives' are named, never read (history-problems.ts).
  const problems: HistoryProblem[] = archiveFolderProblems(input.dataDir);
  const skipped = new Set(problems.map((p) => p.path));
  try {
    for (const f of files) {
      let st: fs.Stats;
      try {
        st = fs.lstatSync(f.path);
      } catch {
        filesDone++;
        continue;
      }
      if (skipped.has(f.path)) {
        filesDone++;
        continue;
      }
      const invalidUtf8: number[] = [];
      let inFile = 0;
      let bytes = 0;
      let pending: StoredRecord[] = [];
      const flush = (): void => {
        if (pending.length === 0) return;
        index.bulkInsert(pending.map((r) => toIndexed(r, f.file)));
        inFile += pending.length;
        records += pending.length;
        pending = [];
        port.postMessage({ type: 'progress', phase: 'reading', filesDone, filesTotal: files.length, records } satisfies RebuildWorkerMessage);
      };
      try {
        // Streamed line by line: a huge line is reported, never decoded (it once took this worker to 4.5 GB).
        for await (const batch of readJsonlBatches(f.path)) {
          bytes += batch.bytes;
          for (const l of batch.lines) {
            if (l.kind === 'record') {
              pending.push(l.record);
              continue;
            }
            badLines++;
            if (l.torn) tornTails++;
            if (l.invalidUtf8 === true) invalidUtf8.push(l.line);
            if (l.oversized) problems.push({ kind: 'oversized', file: f.file, path: f.path, line: l.line, bytes: l.oversized.bytes });
          }
          if (pending.length >= input.batchSize) flush();
        }
        flush();
        if (invalidUtf8.length) problems.push({ kind: 'invalid-utf8', file: f.file, path: f.path, lines: invalidUtf8 });
      } catch (err) {
        // One unreadable file (a directory under an archive's name, no permission) hides only itself.
        problems.push({ kind: 'unreadable', file: f.file, path: f.path, reason: errorReason(err) });
        filesDone++;
        continue;
      }
      // Size as read (not as now): if the file grew meanwhile, the next start-up check sees it as stale.
      const tail = readTailFingerprint(f.path, bytes);
      index.setFileState(f.file, { size: bytes, mtimeMs: st.mtimeMs, count: inFile, ...(tail === null ? {} : { tail }) });
      filesDone++;
    }
    port.postMessage({ type: 'progress', phase: 'indexing', filesDone, filesTotal: files.length, records } satisfies RebuildWorkerMessage);
    index.finishBulkLoad();
    port.postMessage({ type: 'progress', phase: 'optimizing', filesDone, filesTotal: files.length, records } satisfies RebuildWorkerMessage);
    index.optimize();
  } finally {
    index.close();
  }
  // The bulk load ran without fsync: make the file durable before anyone renames it into place.
  const fd = fs.openSync(input.tmpPath, 'r+');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  port.postMessage({ type: 'done', records, files: files.length, badLines, tornTails, problems } satisfies RebuildWorkerMessage);
}

function errorReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : String(e?.message ?? err);
}

run(workerData as RebuildWorkerInput).catch((err: unknown) => {
  parentPort?.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies RebuildWorkerMessage);
});
