/**
 * scripts/start.mjs (`npm start`) without a build and without any download: where no Electron binary
 * exists it must say what to do; where one exists (here a stand-in executable, since no real
 * Electron binary can run on this machine) it must launch it on the project with the extra args.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

describe('scripts/start.mjs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tingxie-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const start = (env: Record<string, string>, args: string[] = []): ReturnType<typeof spawnSync> =>
    spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--no-build', '--no-download', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it('without a binary: exits 2 with a message saying how to get one', () => {
    const r = start({ ELECTRON_OVERRIDE_DIST_PATH: dir });
    expect(r.status).toBe(2);
    const err = String(r.stderr);
    expect(err).toContain('there is no Electron binary');
    expect(err).toContain('npx install-electron');
    expect(err).toContain('ELECTRON_OVERRIDE_DIST_PATH');
    expect(err).not.toMatch(/failed to install correctly/);
  });

  it('with a binary: runs it on the project folder with the args after --, and passes its exit code through', () => {
    if (process.platform === 'win32') return; // the stand-in executable is a shell script
    writeFileSync(
      join(dir, 'electron'),
      '#!/bin/sh\necho "args:$*"\necho "run-as-node:${ELECTRON_RUN_AS_NODE:-unset}"\nexit 7\n',
      { mode: 0o755 },
    );
    const r = start({ ELECTRON_OVERRIDE_DIST_PATH: dir, ELECTRON_RUN_AS_NODE: '1' }, ['--', '--enable-logging']);
    expect(String(r.stdout)).toContain(`args:${root} --enable-logging`);
    expect(String(r.stdout)).toContain('run-as-node:unset');
    expect(r.status).toBe(7);
  });

  it('builds in a checkout whose path has a space and non-ASCII characters (the root is not percent-encoded)', () => {
    // A copy of the script in such a folder, with a stand-in electron-vite that records where it ran.
    const checkout = join(dir, 'my projects', '听写');
    mkdirSync(join(checkout, 'scripts'), { recursive: true });
    mkdirSync(join(checkout, 'node_modules/electron-vite/bin'), { recursive: true });
    copyFileSync(join(root, 'scripts/start.mjs'), join(checkout, 'scripts/start.mjs'));
    writeFileSync(
      join(checkout, 'node_modules/electron-vite/bin/electron-vite.js'),
      "require('node:fs').writeFileSync(require('node:path').join(process.cwd(), 'built.txt'), process.cwd());\n",
    );
    writeFileSync(join(checkout, 'node_modules/electron-vite/package.json'), '{"type":"commonjs"}');
    const r = spawnSync(process.execPath, [join(checkout, 'scripts/start.mjs'), '--no-download'], {
      cwd: dir,
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: dir },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(String(r.stderr)).not.toContain('the build failed');
    expect(existsSync(join(checkout, 'built.txt'))).toBe(true);
    expect(readFileSync(join(checkout, 'built.txt'), 'utf8')).toBe(checkout);
    // No electron package in this checkout: the message says how to get it, exit 2.
    expect(r.status).toBe(2);
  });
});
