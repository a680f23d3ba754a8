import fs from 'node:fs';
import path from 'node:path';

/** Shared benchmark plumbing: percentiles, printing, and merging into bench/results/latest.json. */

/** One benchmark's entry in latest.json. */
export interface BenchEntry {
  readonly ratio: number;
  readonly target: string;
  readonly pass: boolean;
  readonly figures: Record<string, number | string | boolean>;
}

/** Percentile (nearest rank) of a list of numbers. */
export function pct(values: readonly number[], p: number): number {
  // NaN marks "does not apply to this run" (a stage that did not happen): left out, not sorted in.
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

/** Times a synchronous function in milliseconds. */
export function timeMs(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** Prints one line per figure. */
export function printEntry(id: string, e: BenchEntry): void {
  for (const [k, v] of Object.entries(e.figures)) console.log(`${id} ${k}: ${typeof v === 'number' ? +v.toFixed(4) : v}`);
  console.log(`${id} ratio: ${+e.ratio.toFixed(3)} target: ${e.target} -> ${e.pass ? 'PASS' : 'FAIL'}`);
}

/** Merges entries into bench/results/latest.json (other issues add their own ids). */
export function mergeResults(entries: Record<string, BenchEntry>, file = path.join(import.meta.dirname, '..', 'results', 'latest.json')): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let existing: Record<string, unknown>;
  try {
    existing = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    existing = {};
  }
  fs.writeFileSync(file, `${JSON.stringify({ ...existing, ...entries }, null, 2)}\n`);
}

/** Replaces bench/results/latest.json with exactly these entries (a full run). */
export function writeResults(entries: Record<string, BenchEntry>, file = path.join(import.meta.dirname, '..', 'results', 'latest.json')): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(entries, null, 2)}\n`);
}
