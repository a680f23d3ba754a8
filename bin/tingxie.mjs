#!/usr/bin/env node
// The `tingxie` command. Plain JavaScript so even an old Node can print why it cannot run the TypeScript CLI.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `tingxie needs Node 22.12 or newer; this is Node ${process.versions.node}.\n` +
      'From a checkout, run it through npm, which uses the project\'s own Node: npm run tingxie -- <args>\n' +
      'or install Node 22.12+ (e.g. from https://nodejs.org) and run this again.\n',
  );
  process.exit(1);
}

if (!process.features.typescript) {
  // Node 22.12–22.17 can strip TypeScript types only behind a flag: run this file again with it.
  const r = spawnSync(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(r.status ?? 1);
}

const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
