import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ensureDataset } from './lib/generate.ts';
import type { BenchEntry } from './lib/report.ts';

/**
 * B17: `tingxie history import` of a WenZi folder of 1,000,000 seeded realistic records (100,000 and
 * 10,000 with --quick) against 100,000 (10,000) in the same run: the ratio must stay ≤ 12× (linear) and
 * the big import under 2 minutes. Each import runs the real CLI `main()` in a child process on a fresh
 * data folder (lock, HistoryService with its index, the import, the index update the user waits on),
 * so the figures include everything the user waits for and the peak RSS is that process's own.
 */

const SEED = 42;
const RATIO_TARGET = 12;
const BIG_LIMIT_S = 120;
const cacheRoot = path.join(import.meta.dirname, '.cache');

/** Makes (once, cached in bench/.cache) a WenZi-shaped copy of the generated history: the same lines without Tingxie's `id`. */
export async function ensureWenziFolder(n: number): Promise<string> {
  const dir = path.join(cacheRoot, `wenzi-s${SEED}-n${n}`);
  const marker = path.join(dir, '.complete');
  if (fs.existsSync(marker)) return dir;
  const base = ensureDataset(n, SEED, cacheRoot).dataDir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'conversation_history_archives'), { recursive: true });
  const files = ['conversation_history.jsonl', ...fs.readdirSync(path.join(base, 'conversation_history_archives')).map((f) => path.join('conversation_history_archives', f))];
  for (const rel of files) {
    const out = fs.createWriteStream(path.join(dir, rel));
    for await (const line of readline.createInterface({ input: fs.createReadStream(path.join(base, rel)), crlfDelay: Infinity })) {
      if (!line) continue;
      const { id: _id, ...wenzi } = JSON.parse(line) as Record<string, unknown>;
      if (!out.write(`${JSON.stringify(wenzi)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));
  }
  fs.writeFileSync(marker, '');
  return dir;
}

/** One measured import: the CLI in a child process on a fresh data folder. */
interface ImportRun {
  readonly seconds: number;
  readonly peakRssMb: number;
  /** CPU time of the whole child (main thread and the index worker). */
  readonly cpuSeconds: number;
  readonly imported: number;
}

function runImport(wenziDir: string): ImportRun {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-b17-'));
  try {
    const r = spawnSync(process.execPath, [import.meta.filename, '--child', dataDir, wenziDir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`import failed (${r.status}): ${r.stderr.slice(-2000)}`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { ms: number; maxRssKb: number; cpuUs: number; report: { imported: number } };
    return { seconds: m.ms / 1000, peakRssMb: m.maxRssKb / 1024, cpuSeconds: m.cpuUs / 1e6, imported: m.report.imported };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Child: `tingxie --json --data-dir D history import W` through the CLI's main(), then time and peak RSS. */
async function child(dataDir: string, wenziDir: string): Promise<void> {
  const { main } = await import('../src/cli/main.ts');
  let out = '';
  const t = performance.now();
  const code = await main(['--json', '--data-dir', dataDir, 'history', 'import', wenziDir], {
    stdout: { write: (s: string) => (out += s) },
    stderr: process.stderr,
    env: process.env,
  });
  const ms = performance.now() - t;
  if (code !== 0) process.exit(code);
  const usage = process.resourceUsage();
  process.stdout.write(`${JSON.stringify({ ms, maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime, report: JSON.parse(out) as unknown })}\n`);
}

/** Runs B17. */
export async function runB17(opts: { quick: boolean }): Promise<BenchEntry> {
  const small = opts.quick ? 10_000 : 100_000;
  const big = opts.quick ? 100_000 : 1_000_000;
  const smallDir = await ensureWenziFolder(small);
  const bigDir = await ensureWenziFolder(big);
  const s = runImport(smallDir);
  const b = runImport(bigDir);
  if (s.imported !== small || b.imported !== big) throw new Error(`imported ${s.imported}/${small} and ${b.imported}/${big} records`);
  const ratio = b.seconds / s.seconds;
  const limit = opts.quick ? BIG_LIMIT_S / 10 : BIG_LIMIT_S;
  return {
    ratio,
    target: `import of ${big.toLocaleString('en')} / ${small.toLocaleString('en')} records <= ${RATIO_TARGET}x and under ${limit} s`,
    pass: ratio <= RATIO_TARGET && b.seconds <= limit,
    figures: {
      small_records: small,
      big_records: big,
      small_s: s.seconds,
      big_s: b.seconds,
      small_cpu_s: s.cpuSeconds,
      big_cpu_s: b.cpuSeconds,
      small_peak_rss_mb: s.peakRssMb,
      big_peak_rss_mb: b.peakRssMb,
      big_records_per_s: Math.round(big / b.seconds),
    },
  };
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? '', process.argv[4] ?? '');
