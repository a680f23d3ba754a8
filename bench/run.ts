import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HistoryIndex } from '../src/main/history/index/history-index.ts';
import { runB1 } from './b1-search.ts';
import { runB2 } from './b2-pagination.ts';
import { runB4 } from './b4-rebuild.ts';
import { ensureDataset, type Dataset } from './lib/generate.ts';
import { mergeResults, printEntry, writeResults, type BenchEntry } from './lib/report.ts';

/**
 * `npm run bench` (1,000,000 history records) or `npm run bench -- --quick` (200,000 records and
 * shorter loops; < 3 min on 2 cores once the dataset is cached in bench/.cache). `--only=B1,B2` runs a
 * subset. Every benchmark registered below runs when its file exists; a missed target is reported as
 * pass:false, and the exit code is non-zero only when a benchmark could not run (an error).
 * `--accuracy MODELS_DIR` runs the opt-in accuracy run instead (bench/accuracy.ts: CER per model and language).
 */
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',').map((s) => s.trim().toUpperCase());
const want = (id: string): boolean => !only || only.includes(id.toUpperCase());
const N = quick ? 200_000 : 1_000_000;
const SEED = 42;
const cacheRoot = path.join(import.meta.dirname, '.cache');
const dbPath = path.join(cacheRoot, `index-s${SEED}-n${N}.db`);

type Runner = () => Promise<BenchEntry>;
/** Benchmarks over the generated history dataset. */
const HISTORY_IDS = new Set(['B1', 'B2', 'B4', 'B6']);
/** Loads `runBn` from a benchmark file owned by another part of the project, or null when it is absent. */
async function external(file: string, fn: string, call: (run: (o: { quick: boolean }) => Promise<BenchEntry>) => Promise<BenchEntry>): Promise<Runner | null> {
  const p = path.join(import.meta.dirname, file);
  if (!fs.existsSync(p)) return null;
  const mod = (await import(p)) as Record<string, unknown>;
  const run = mod[fn];
  if (typeof run !== 'function') throw new Error(`${file} does not export ${fn}`);
  return () => call(run as (o: { quick: boolean }) => Promise<BenchEntry>);
}

let dataset: Dataset | null = null;
function history(): Dataset {
  if (!dataset) {
    const t = performance.now();
    dataset = ensureDataset(N, SEED, cacheRoot);
    console.log(`dataset: ${dataset.dataDir} (${dataset.files} files, ${(dataset.bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return dataset;
}
/** Opens the benchmark index, building it first (B4's measured run) when it is missing or out of date. */
async function withIndex<T>(fn: (index: HistoryIndex) => T): Promise<T> {
  if (!fs.existsSync(dbPath)) await runB4(history().dataDir, dbPath, N);
  let index = HistoryIndex.open(dbPath);
  if (index.createdFresh) {
    index.close();
    await runB4(history().dataDir, dbPath, N);
    index = HistoryIndex.open(dbPath);
  }
  try {
    return fn(index);
  } finally {
    index.close();
  }
}

const registry: readonly (readonly [string, () => Promise<Runner | null>])[] = [
  ['B4', async () => async () => ({ ...(await runB4(history().dataDir, dbPath, N)) })],
  ['B1', async () => () => withIndex((index) => runB1(index, history().dataDir, history().vocab, quick ? 1 : 3))],
  ['B2', async () => () => withIndex((index) => runB2(index))],
  ['B3', () => external('b3-log.ts', 'runB3', (run) => run({ quick }))],
  ['B5', () => external('b5-prompt-cache.ts', 'runB5', (run) => run({ quick }))],
  // The cost of learning on the built-in engine (random-weight GGUF, real Qwen2.5 tokenizer): history + vocabulary on vs off.
  ['B15', () => external('b15-learning-cost.ts', 'runB15', (run) => run({ quick }))],
  ['B6', async () => async () => {
    await withIndex(() => undefined);
    const out = execFileSync(process.execPath, ['--expose-gc', path.join(import.meta.dirname, 'b6-memory.ts'), dbPath], { encoding: 'utf8' });
    const m = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { before: number; after: number; pages: number };
    const growthMb = (m.after - m.before) / 1e6;
    return {
      ratio: growthMb / 50,
      target: 'RSS growth while browsing/searching <= 50 MB',
      pass: growthMb <= 50,
      figures: { rss_before_mb: m.before / 1e6, rss_after_mb: m.after / 1e6, growth_mb: growthMb, pages_fetched: m.pages },
    };
  }],
  ['B7', () => external('b7-asr.ts', 'runB7', (run) => run({ quick }))],
  ['B11', () => external('b11-long-dictation.ts', 'runB11', (run) => run({ quick }))],
  ['B13', () => external('b13-sherpa-vs-whisper.ts', 'runB13', (run) => run({ quick }))],
  // WenZi import of 1,000,000 records (100,000 with --quick) vs a tenth of it, through the real CLI.
  ['B17', () => external('b17-import.ts', 'runB17', (run) => run({ quick }))],
  ['B9', async () => {
    const { runB9 } = await import('./b9-cold-start.ts');
    return () => runB9({ quick });
  }],
  // The built app in the whole-app harness: one measured run (bench/lib/app-session.ts), read by B10,
  // B9b and B8 (so B10 carries its wall time).
  ['B10', async () => {
    const { runB10 } = await import('./b10-app-latency.ts');
    return () => runB10({ quick });
  }],
  ['B9b', async () => {
    const { runB9b } = await import('./b9b-app-start.ts');
    return () => runB9b({ quick });
  }],
  ['B8', async () => {
    // One B8 entry: prompt building (b8-prompt-build.ts) and key-up → paste hand-off overhead, read from
    // the whole-app run (b8-overhead.ts).
    const { runB8Overhead, mergeB8 } = await import('./b8-overhead.ts');
    const prompt = await external('b8-prompt-build.ts', 'runB8', (run) => run({ quick }));
    return async () => mergeB8(prompt ? await prompt() : { ratio: 0, target: 'prompt building: not present', pass: true, figures: {} }, await runB8Overhead({ quick }));
  }],
];

// The opt-in accuracy run (bench/accuracy.ts): CER per model in a folder of real models, instead of the benchmarks.
if (args.some((a) => a === '--accuracy' || a.startsWith('--accuracy='))) {
  const { runAccuracyCli } = await import('./accuracy.ts');
  process.exit(await runAccuracyCli(args));
}
console.log(`bench: ${quick ? `QUICK mode, N = ${N.toLocaleString('en')} history records (full run uses 1,000,000)` : `N = ${N.toLocaleString('en')} history records`}`);
const results: Record<string, BenchEntry> = {};
const errors: string[] = [];
const wall0 = performance.now();
const cpu0 = process.cpuUsage();
for (const [id, load] of registry) {
  if (!want(id)) continue;
  try {
    const runner = await load();
    if (!runner) {
      console.log(`${id}: not present`);
      continue;
    }
    const w = performance.now();
    const c = process.cpuUsage();
    const e = await runner();
    const cpu = process.cpuUsage(c);
    // user vs real: the machine is shared, so a wall time far above CPU time means we were waiting for a core.
    const entry: BenchEntry = {
      ...e,
      figures: { ...e.figures, ...(HISTORY_IDS.has(id) ? { history_records: N } : {}), mode: quick ? 'quick' : 'full', wall_s: (performance.now() - w) / 1000, cpu_user_s: cpu.user / 1e6, cpu_system_s: cpu.system / 1e6 },
    };
    printEntry(id, entry);
    results[id] = entry;
    // Written after each benchmark, so a later crash keeps what was measured.
    mergeResults({ [id]: entry });
  } catch (err) {
    errors.push(id);
    console.log(`${id}: ERROR ${(err as Error).stack ?? String(err)}`);
  }
}
// A full run replaces the file, so no stale entry from an earlier run survives; --only merges.
if (!only) writeResults(results);
const cpu = process.cpuUsage(cpu0);
const failed = Object.entries(results).filter(([, e]) => !e.pass).map(([id]) => id);
console.log(
  `bench: done in ${((performance.now() - wall0) / 1000).toFixed(1)} s real, ${(cpu.user / 1e6).toFixed(1)} s user (this process; B6 runs in a child); ` +
    `${failed.length ? `missed targets: ${failed.join(', ')}` : 'all targets met'}${errors.length ? `; ERRORS: ${errors.join(', ')}` : ''}; results in bench/results/latest.json`,
);
process.exitCode = errors.length > 0 ? 1 : 0;
