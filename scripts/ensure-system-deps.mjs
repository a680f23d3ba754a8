#!/usr/bin/env node
// Makes sure the system tools the tests drive are present: Debian's Chromium (browser tests), for the
// audio issues espeak-ng (speech WAVs) and sox (convert/measure), and for hotkeys/paste Xvfb, xdotool,
// xclip and x11-utils. Fast and silent-ish when
// everything is there; on Debian/Ubuntu as root it installs what is missing with apt-get (one
// `apt-get update` per run); anywhere else it says exactly what is missing and exits non-zero.
//
// Usage: node scripts/ensure-system-deps.mjs [--check] [--for=browser]
//   --check: never install, only report.
//   --for=browser: only what the browser tests need (Chromium — or the browser TINGXIE_CHROMIUM names —,
//   espeak-ng and sox; CJK fonts on Linux), so `npm run test:browser` also runs on macOS and Windows.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Tools needed, with the Debian package that provides each. `paths` are checked before $PATH. */
const REQUIRED = [
  // test/helpers/browser-harness.ts drives the browser TINGXIE_CHROMIUM names, else /usr/bin/chromium.
  { tool: 'chromium', pkg: 'chromium', paths: [process.env.TINGXIE_CHROMIUM || '/usr/bin/chromium'], onlyPaths: Boolean(process.env.TINGXIE_CHROMIUM), browser: true, why: 'browser tests (playwright-core drives it)' },
  { tool: 'espeak-ng', pkg: 'espeak-ng', paths: [], browser: true, why: 'synthesised speech for audio/ASR tests' },
  { tool: 'sox', pkg: 'sox', paths: [], browser: true, why: 'audio conversion and measurement in tests' },
  // Hotkey and paste tests on a private X server (test/unit/platform-x11).
  { tool: 'Xvfb', pkg: 'xvfb', paths: [], why: 'a virtual X display for the hotkey/paste tests' },
  { tool: 'xdotool', pkg: 'xdotool', paths: [], why: 'drives keys and window focus (tests) and pastes on X11 (app)' },
  { tool: 'xclip', pkg: 'xclip', paths: [], why: 'the X11 clipboard in the paste tests' },
  { tool: 'xprop', pkg: 'x11-utils', paths: [], why: 'window classes (terminal detection) in the paste tests' },
  // The whole-app harness's globalShortcut makes real X key grabs (test/app/stand-in/x11-grab-keys.py).
  { tool: 'python3-xlib', pkg: 'python3-xlib', paths: [], file: '/usr/lib/python3/dist-packages/Xlib/__init__.py', why: 'X key grabs for the whole-app tests (globalShortcut)' },
  // xdpyinfo (x11-utils, above) tells the harness the screen size.
  // A font, not a tool: without it Chinese text in the browser tests' screenshots renders as boxes.
  // macOS and Windows ship CJK fonts.
  { tool: 'Noto CJK fonts', pkg: 'fonts-noto-cjk', paths: [], browser: process.platform === 'linux', file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', why: 'Chinese text in UI screenshots' },
];

const checkOnly = process.argv.includes('--check');
const browserOnly = process.argv.includes('--for=browser');

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findTool({ tool, paths, file, onlyPaths }) {
  if (file) return existsSync(file) ? file : null;
  if (onlyPaths) return paths.find(isExecutable) ?? null;
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  // Windows finds programs by their extension (PATHEXT); accessSync's X_OK only tells existence there.
  const names = process.platform === 'win32' ? [`${tool}.exe`, tool] : [tool];
  return [...paths, ...dirs.flatMap((d) => names.map((n) => path.join(d, n)))].find(isExecutable) ?? null;
}

function missingTools() {
  return REQUIRED.filter((r) => (!browserOnly || r.browser) && findTool(r) === null);
}

function isDebianLike() {
  if (!existsSync('/etc/os-release') || !isExecutable('/usr/bin/apt-get')) return false;
  const release = readFileSync('/etc/os-release', 'utf8');
  return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(release);
}

function run(cmd, args) {
  console.log(`ensure-system-deps: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

function fail(missing, reason) {
  console.error(`ensure-system-deps: missing system tools: ${missing.map((m) => m.tool).join(', ')}`);
  for (const m of missing) console.error(`  - ${m.tool} (Debian package "${m.pkg}"): ${m.why}`);
  console.error(`ensure-system-deps: ${reason}`);
  console.error(`  Install them, e.g.: sudo apt-get install -y --no-install-recommends ${missing.map((m) => m.pkg).join(' ')}`);
  process.exit(1);
}

let missing = missingTools();
if (missing.length === 0) process.exit(0);

if (checkOnly) fail(missing, 'not installing (--check).');
if (process.platform !== 'linux' || !isDebianLike()) fail(missing, 'automatic install is only done on Debian/Ubuntu.');
if (typeof process.getuid !== 'function' || process.getuid() !== 0) fail(missing, 'automatic install needs root.');

const pkgs = [...new Set(missing.map((m) => m.pkg))];
if (!run('apt-get', ['update'])) fail(missing, '`apt-get update` failed.');
if (!run('apt-get', ['install', '-y', '--no-install-recommends', ...pkgs])) fail(missing, '`apt-get install` failed.');

missing = missingTools();
if (missing.length > 0) fail(missing, 'still missing after apt-get install.');
console.log(`ensure-system-deps: installed ${pkgs.join(' ')}`);
