#!/usr/bin/env node
// `npm start`: build the app with electron-vite, make sure the Electron binary is there (the
// `electron` package downloads it on first use since v42, there is no install step), then run it.
// Where the binary cannot be had (offline, GitHub blocked), say exactly what to do instead of
// printing electron's generic "failed to install correctly".
//
// Options: --no-build (skip electron-vite build), --no-download (never fetch the binary; used by
// tests), anything after `--` goes to Electron.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// fileURLToPath, not URL.pathname: the latter is `/C:/…` on Windows and percent-encodes spaces and
// non-ASCII folder names, so the build step would run in a folder that does not exist.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const dashDash = argv.indexOf('--');
const ownArgs = dashDash === -1 ? argv : argv.slice(0, dashDash);
const electronArgs = dashDash === -1 ? [] : argv.slice(dashDash + 1);
const noBuild = ownArgs.includes('--no-build');
const noDownload = ownArgs.includes('--no-download') || process.env.TINGXIE_NO_ELECTRON_DOWNLOAD === '1';

const HELP = `Tingxie cannot start: there is no Electron binary, and it could not be downloaded.

The 'electron' npm package fetches its binary (~100 MB) from GitHub on first run. To get it:
  * run 'npx install-electron' on a machine/network that can reach github.com, or
  * point ELECTRON_MIRROR at a mirror (e.g. ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/), or
  * unpack an Electron ${electronVersion()} build yourself and set ELECTRON_OVERRIDE_DIST_PATH=<that folder>.
Then run 'npm start' again. Everything else (tests, the 'tingxie' CLI) works without Electron.`;

function electronVersion() {
  try {
    return JSON.parse(readFileSync(join(electronDir(), 'package.json'), 'utf8')).version;
  } catch {
    return '(see package.json)';
  }
}

function electronDir() {
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

/** The Electron executable if present — found like electron/index.js does, but without downloading. */
function findElectron() {
  let dir;
  try {
    dir = electronDir();
  } catch {
    return null;
  }
  const pathFile = join(dir, 'path.txt');
  const fallback = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : process.platform === 'win32' ? 'electron.exe' : 'electron';
  const rel = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : fallback;
  const exe = join(process.env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'), rel);
  return existsSync(exe) ? exe : null;
}

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

if (!noBuild) {
  console.log('tingxie: building (electron-vite build)…');
  const build = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) fail(`tingxie: the build failed (exit ${build.status ?? build.signal}); see the errors above.`);
}

let exe = findElectron();
if (exe === null) {
  if (noDownload) fail(HELP, 2);
  console.log('tingxie: first run — downloading the Electron binary (npx install-electron)…');
  let installer;
  try {
    installer = join(electronDir(), 'install.js');
  } catch {
    fail(`tingxie: the 'electron' package is not installed. Run 'npm install' first.`);
  }
  const dl = spawnSync(process.execPath, [installer], { cwd: root, stdio: 'inherit' });
  exe = dl.status === 0 ? findElectron() : null;
  if (exe === null) fail(HELP, 2);
}

// ELECTRON_RUN_AS_NODE would turn Electron into plain Node and the app would not start.
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(exe, [root, ...electronArgs], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
