import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { parseJsonlText, readJsonlFile, type JsonlReadResult } from './jsonl-reader.ts';
import { HistoryIndex } from './history-index.ts';
import { toIndexed } from './index-schema.ts';
import { listHistoryFiles } from './index-sync.ts';

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
  | { readonly type: 'done'; readonly records: number; readonly files: number; readonly badLines: number; readonly tornTails: number }
  | { readonly type: 'error'; readonly message: string };

/** Files above this are parsed in newline-aligned chunks rather than as one string. */
const CHUNK_BYTES = 16 * 1024 * 1024;

/** Reads one JSONL file, chunked when large, yielding partial results in file order. */
async function* readChunks(filePath: string): AsyncGenerator<JsonlReadResult> {
  const size = fs.statSync(filePath).size;
  if (size <= CHUNK_BYTES) {
    yield await readJsonlFile(filePath);
    return;
  }
  const fd = await fs.promises.open(filePath, 'r');
  try {
    let carry = Buffer.alloc(0);
    const buf = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await fd.read(buf, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const data = Buffer.concat([carry, buf.subarray(0, bytesRead)]);
      const cut = data.lastIndexOf(0x0a);
      if (cut < 0) {
        carry = data;
        continue;
      }
      carry = Buffer.from(data.subarray(cut + 1));
      yield parseJsonlText(data.subarray(0, cut + 1).toString('utf8'));
    }
    // The remainder has no newline: the parser reports it as a torn tail when it does not parse.
    if (carry.length > 0) yield parseJsonlText(carry.toString('utf8'));
  } finally {
    await fd.close();
  }
}

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
  try {
    for (const f of files) {
      let st: fs.Stats;
      try {
        st = fs.statSync(f.path);
      } catch {
        filesDone++;
        continue;
      }
      let inFile = 0;
      let bytes = 0;
      for await (const chunk of readChunks(f.path)) {
        badLines += chunk.bad.length;
        if (chunk.tornTail) tornTails++;
        bytes += chunk.bytes;
        for (let i = 0; i < chunk.records.length; i += input.batchSize) {
          const batch = chunk.records.slice(i, i + input.batchSize).map((r) => toIndexed(r, f.file));
          index.bulkInsert(batch);
          inFile += batch.length;
          records += batch.length;
          port.postMessage({ type: 'progress', phase: 'reading', filesDone, filesTotal: files.length, records } satisfies RebuildWorkerMessage);
        }
      }
      // Size as read (not as now): if the file grew meanwhile, the next start-up check sees it as stale.
      index.setFileState(f.file, { size: bytes, mtimeMs: st.mtimeMs, count: inFile });
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
  port.postMessage({ type: 'done', records, files: files.length, badLines, tornTails } satisfies RebuildWorkerMessage);
}

run(workerData as RebuildWorkerInput).catch((err: unknown) => {
  parentPort?.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies RebuildWorkerMessage);
});
