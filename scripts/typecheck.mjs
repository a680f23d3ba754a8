// Type-checks every per-environment tsconfig listed in tsconfig.json's references (one compiler run each,
// because each environment sees different globals: the renderer has no Node types, main has no DOM).
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const solution = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8'));
let failed = 0;
for (const { path } of solution.references) {
  const started = Date.now();
  const run = spawnSync('tsc', ['-p', path, '--pretty'], { stdio: 'inherit', shell: process.platform === 'win32' });
  const ok = run.status === 0;
  if (!ok) failed++;
  console.log(`typecheck ${path}: ${ok ? 'ok' : 'FAILED'} (${Date.now() - started} ms)`);
}
process.exit(failed ? 1 : 0);
