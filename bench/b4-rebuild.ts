import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { rebuildIndex } from '../src/main/history/index/index-rebuild.ts';
import type { BenchEntry } from './lib/report.ts';

/** B4: rebuild the index from every JSONL file in a worker; the main thread's event-loop lag meanwhile. */
export async function runB4(dataDir: string, dbPath: string, n: number): Promise<BenchEntry> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  // A timer keeps the main loop doing (tiny) work the way IPC would, so stalls show up as delay.
  const tick = setInterval(() => undefined, 5);
  h.enable();
  // Wall-clock start of each phase the worker reports (reading JSONL, building FTS, merging segments).
  const t0 = performance.now();
  const phaseAt: Record<string, number> = {};
  const r = await rebuildIndex({
    dataDir,
    dbPath,
    onProgress: (p) => {
      phaseAt[p.phase] ??= performance.now() - t0;
    },
  });
  h.disable();
  clearInterval(tick);
  const p99 = h.percentile(99) / 1e6;
  return {
    ratio: p99 / 50,
    target: 'event-loop lag p99 / 50 ms <= 1 (rebuild off the main thread)',
    pass: p99 <= 50,
    figures: {
      records: r.records,
      expected_records: n,
      files: r.files,
      rebuild_s: r.durationMs / 1000,
      records_per_s: Math.round(r.records / (r.durationMs / 1000)),
      lag_p50_ms: h.percentile(50) / 1e6,
      lag_p99_ms: p99,
      lag_max_ms: h.max / 1e6,
      load_s: (phaseAt.indexing ?? NaN) / 1000,
      fts_build_s: ((phaseAt.optimizing ?? NaN) - (phaseAt.indexing ?? NaN)) / 1000,
      optimize_s: ((phaseAt.swapping ?? NaN) - (phaseAt.optimizing ?? NaN)) / 1000,
      db_mb: fs.statSync(dbPath).size / 1e6,
    },
  };
}
