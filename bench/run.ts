import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HistoryIndex } from '../src/main/history/history-index.ts';
import { runB1 } from './b1-search.ts';
import { runB2 } from './b2-pagination.ts';
import { runB3 } from './b3-log.ts';
import { runB4 } from './b4-rebuild.ts';
import { ensureDataset } from './lib/generate.ts';
import { mergeResults, printEntry, type BenchEntry } from './lib/report.ts';

/**
 * `npm run bench` (1,000,000 records) or `npm run bench -- --quick` (200,000 records, < 3 min on 2 cores
 * once the dataset is cached). Datasets are cached in bench/.cache keyed by seed and size.
 * `--only=B1,B2` runs a subset.
 */
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const want = (id: string): boolean => !only || only.includes(id);
const N = quick ? 200_000 : 1_000_000;
const SEED = 42;
const cacheRoot = path.join(import.meta.dirname, '.cache');
const results: Record<string, BenchEntry> = {};

function record(id: string, e: BenchEntry): void {
  printEntry(id, e);
  results[id] = e;
  mergeResults({ [id]: e });
}

console.log(`bench: ${quick ? `QUICK mode, N = ${N.toLocaleString('en')} records (full run uses 1,000,000)` : `N = ${N.toLocaleString('en')} records`}`);
const t = performance.now();
const ds = ensureDataset(N, SEED, cacheRoot);
console.log(`dataset: ${ds.dataDir} (${ds.files} files, ${(ds.bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const dbPath = path.join(cacheRoot, `index-s${SEED}-n${N}.db`);

if (want('B4') || !fs.existsSync(dbPath)) {
  const e = await runB4(ds.dataDir, dbPath, N);
  e.figures.mode = quick ? 'quick' : 'full';
  record('B4', e);
}
const index = HistoryIndex.open(dbPath);
try {
  if (want('B1')) {
    const e = runB1(index, ds.dataDir, ds.vocab, quick ? 1 : 3);
    e.figures.records = N;
    record('B1', e);
  }
  if (want('B2')) {
    const e = runB2(index);
    e.figures.records = N;
    record('B2', e);
  }
} finally {
  index.close();
}
if (want('B6')) {
  const out = execFileSync(process.execPath, ['--expose-gc', path.join(import.meta.dirname, 'b6-memory.ts'), dbPath], { encoding: 'utf8' });
  const m = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { before: number; after: number; pages: number };
  const growthMb = (m.after - m.before) / 1e6;
  record('B6', {
    ratio: growthMb / 50,
    target: 'RSS growth while browsing/searching <= 50 MB',
    pass: growthMb <= 50,
    figures: { records: N, rss_before_mb: m.before / 1e6, rss_after_mb: m.after / 1e6, growth_mb: growthMb, pages_fetched: m.pages },
  });
}
if (want('B3')) {
  try {
    record('B3', await runB3(cacheRoot, quick ? 150 : 400));
  } catch (err) {
    console.log(`B3 could not run: ${(err as Error).message}`);
  }
}
const failed = Object.entries(results).filter(([, e]) => !e.pass).map(([id]) => id);
console.log(`bench: done; ${failed.length ? `FAIL: ${failed.join(', ')}` : 'all pass'}; results in bench/results/latest.json`);
