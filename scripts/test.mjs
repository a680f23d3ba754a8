// The whole test command (`npm test`): system deps, typecheck, lint, renderer build, then every vitest
// project (unit, browser in real Chromium, Electron e2e which skips with a reason when no binary exists).
// Ends with one summary line "tests: N passed, N failed, N skipped" so CI can read the outcome.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';

const stages = [
  ['system dependencies', 'node', ['scripts/ensure-system-deps.mjs']],
  ['typecheck', 'node', ['scripts/typecheck.mjs']],
  ['lint', 'eslint', ['--max-warnings=0', '.']],
  ['build', 'electron-vite', ['build']],
];

const results = [];
const started = Date.now();
for (const [name, cmd, args] of stages) {
  const t0 = Date.now();
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(cmd, args, { stdio: 'inherit' });
  results.push({ name, ok: run.status === 0, ms: Date.now() - t0 });
  if (run.status !== 0) break;
}

let counts = { passed: 0, failed: 0, skipped: 0 };
if (results.every((r) => r.ok)) {
  console.log('\n=== vitest (unit, browser, e2e) ===');
  mkdirSync('test-results', { recursive: true });
  const t0 = Date.now();
  const run = spawnSync(
    'vitest',
    ['run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json'],
    { stdio: 'inherit' },
  );
  results.push({ name: 'vitest', ok: run.status === 0, ms: Date.now() - t0 });
  counts = readVitestCounts('test-results/vitest.json', run.status === 0);
}

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${(r.ms / 1000).toFixed(1)} s)`);
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
const allOk = results.length === stages.length + 1 && results.every((r) => r.ok);
if (!allOk && counts.failed === 0) counts.failed = 1; // a failed stage before or around vitest is a failure too
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(allOk ? 0 : 1);

/** Totals from vitest's JSON report; a missing report counts as one failure. */
function readVitestCounts(file, ok) {
  if (!existsSync(file)) return { passed: 0, failed: ok ? 0 : 1, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  return { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, skipped };
}
