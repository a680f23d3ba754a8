import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HistoryProblem } from '../history-problems.ts';
import type { RebuildWorkerInput, RebuildWorkerMessage } from './index-rebuild-worker.ts';

/**
 * Rebuilds index.db from the JSONL files in a worker thread, so the main thread (Electron's IPC loop)
 * never blocks on the bulk load. The new database is written next to the old one and renamed into place.
 */

/** Progress reported while rebuilding. */
export interface RebuildProgress {
  readonly phase: 'reading' | 'indexing' | 'optimizing' | 'swapping';
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly records: number;
}

/** Outcome of a rebuild. */
export interface RebuildResult {
  /** Records read from the files (a key present in two files counts twice; the index keeps it once). */
  readonly records: number;
  readonly files: number;
  readonly badLines: number;
  readonly tornTails: number;
  /** Files that could not be read and lines too long to read (the rest was indexed). */
  readonly problems: readonly HistoryProblem[];
  readonly durationMs: number;
}

/** Options of `rebuildIndex`. */
export interface RebuildOptions {
  readonly dataDir: string;
  readonly dbPath: string;
  readonly onProgress?: (p: RebuildProgress) => void;
  /**
   * Called after the new file is complete and before it replaces `dbPath`: close any HistoryIndex open
   * on `dbPath` here (its WAL must not be paired with the new file; Windows cannot rename over open files).
   */
  readonly beforeSwap?: () => void | Promise<void>;
  /** Records per transaction. */
  readonly batchSize?: number;
  /**
   * Worker entry. Defaults to the sibling index-rebuild-worker.ts when running from source (Node, tests,
   * CLI) and to index-rebuild-worker.js next to the bundle otherwise (electron-vite: add the worker as a
   * second main input so out/main/index-rebuild-worker.js exists).
   */
  readonly workerUrl?: URL;
}

/** Heap cap of the rebuild worker (MB). */
const WORKER_HEAP_MB = 512;

/** The worker file matching how this module is running (source .ts or bundled .js). */
export function defaultWorkerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './index-rebuild-worker.ts' : './index-rebuild-worker.js', import.meta.url);
}

/** Rebuilds the index off the main thread and atomically swaps it into place; resolves with counts and timing. */
export async function rebuildIndex(opts: RebuildOptions): Promise<RebuildResult> {
  const started = performance.now();
  const tmpPath = `${opts.dbPath}.rebuild-${process.pid}-${Date.now()}.tmp`;
  const cleanupTmp = (): void => {
    for (const p of [tmpPath, `${tmpPath}-wal`, `${tmpPath}-shm`, `${tmpPath}-journal`]) fs.rmSync(p, { force: true });
  };
  fs.mkdirSync(path.dirname(opts.dbPath), { recursive: true });
  const input: RebuildWorkerInput = { dataDir: opts.dataDir, tmpPath, batchSize: opts.batchSize ?? 20_000 };
  let done: Extract<RebuildWorkerMessage, { type: 'done' }>;
  try {
    done = await new Promise((resolve, reject) => {
      // The worker streams the files (no line over MAX_LINE_BYTES is ever decoded), so its heap stays small;
      // the cap turns a regression into a reported failure instead of gigabytes taken from the app.
      const worker = new Worker(opts.workerUrl ?? defaultWorkerUrl(), { workerData: input, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
      let settled = false;
      worker.on('message', (msg: RebuildWorkerMessage) => {
        switch (msg.type) {
          case 'progress':
            opts.onProgress?.({ phase: msg.phase, filesDone: msg.filesDone, filesTotal: msg.filesTotal, records: msg.records });
            break;
          case 'done':
            settled = true;
            resolve(msg);
            break;
          case 'error':
            settled = true;
            reject(new Error(`index rebuild failed: ${msg.message}`));
            break;
          default: {
            const never: never = msg;
            reject(new Error(`unexpected worker message ${JSON.stringify(never)}`));
          }
        }
      });
      worker.on('error', (err) => {
        settled = true;
        reject(err);
      });
      worker.on('exit', (code) => {
        if (!settled) reject(new Error(`index rebuild worker exited with code ${code} before finishing`));
      });
    });
    opts.onProgress?.({ phase: 'swapping', filesDone: done.files, filesTotal: done.files, records: done.records });
    await opts.beforeSwap?.();
    // A WAL left by the old file would be replayed into the new one: remove side files first.
    for (const p of [`${opts.dbPath}-wal`, `${opts.dbPath}-shm`, `${opts.dbPath}-journal`]) fs.rmSync(p, { force: true });
    fs.renameSync(tmpPath, opts.dbPath);
    fsyncDir(path.dirname(opts.dbPath));
  } catch (err) {
    cleanupTmp();
    throw err;
  }
  return {
    records: done.records,
    files: done.files,
    badLines: done.badLines,
    tornTails: done.tornTails,
    problems: done.problems,
    durationMs: performance.now() - started,
  };
}

function fsyncDir(dir: string): void {
  // Directory fsync makes the rename durable on POSIX; Windows cannot open directories, and needs none.
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
