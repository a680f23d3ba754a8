/**
 * A static check on what `npm run build` produced: every file under out/main and out/preload parses.
 * A bundle that does not parse is an app that does not start (electron-vite's ESM shim once declared a
 * second top-level `require` in every chunk that called one, and nothing else noticed).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const out = path.resolve(import.meta.dirname, '../../out');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)).filter((f) => /\.(c|m)?js$/.test(f));
}

describe('the built bundles', () => {
  const built = [...files(path.join(out, 'main')), ...files(path.join(out, 'preload'))];

  it('exist (main, engine host, index worker, preload)', () => {
    const names = built.map((f) => path.relative(out, f));
    expect(names).toEqual(expect.arrayContaining(['main/index.js', 'main/engine-host.js', 'main/index-rebuild-worker.js', 'preload/index.cjs']));
  });

  it.each(built.map((f) => [path.relative(out, f), f]))('%s parses (node --check)', (_name, file) => {
    const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
