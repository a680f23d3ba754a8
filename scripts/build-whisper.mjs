#!/usr/bin/env node
// Compiles smart-whisper's native addon (whisper.cpp + ggml) with the SIMD this CPU has.
//
// Why a script of our own: npm 11 blocks dependency install scripts (package.json allowScripts has
// smart-whisper: false), and smart-whisper's own `node-gyp rebuild` compiles ggml without any AVX, which
// is ~7-10x slower on x86. Here we pass explicit -m flags (never -march=native for release builds: the
// binary must run on other CPUs of the same family) and write a stamp so `npm install` is instant when
// the addon is already built with the same flags.
//
// Run by `npm install`/`npm ci` (postinstall). A missing compiler must not break `npm install`: then we
// print why and exit 0, and local ASR reports "engine not built" at run time. Run by hand it exits 1 on
// failure.
//
// Usage: node scripts/build-whisper.mjs [--force] [--print-flags]
// Env:   TINGXIE_SKIP_WHISPER_BUILD=1   skip entirely
//        TINGXIE_WHISPER_PLAIN=1        Linux: smart-whisper's own project instead of the tuned one
//        TINGXIE_WHISPER_NATIVE=1       -march=native (local development only)
//        TINGXIE_WHISPER_CFLAGS="..."   explicit flags instead of the detected ones
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'package.json'));
const args = process.argv.slice(2);
const asPostinstall = process.env.npm_lifecycle_event === 'postinstall';
const STAMP = 'tingxie-build.json';

/** Prints a failure; exits 0 under postinstall (npm install must still succeed), 1 otherwise. */
function fail(message, detail, keptPrevious = false) {
  console.error('');
  console.error('build-whisper: ======================================================================');
  console.error(`build-whisper: FAILED: ${message}`);
  if (detail) for (const line of String(detail).trim().split('\n').slice(-25)) console.error(`build-whisper:   ${line}`);
  console.error(keptPrevious
    ? 'build-whisper: The previous build of the engine stays in use.'
    : 'build-whisper: Local speech recognition will report "engine not built" until this succeeds.');
  console.error('build-whisper: Fix the cause (a C/C++ toolchain: g++/clang, make, python3) and run: node scripts/build-whisper.mjs');
  console.error('build-whisper: ======================================================================');
  process.exit(asPostinstall ? 0 : 1);
}

/** The CPU feature names of this machine, lower-case (Linux /proc/cpuinfo, macOS sysctl). */
function cpuFeatures() {
  try {
    if (process.platform === 'linux') {
      const info = fs.readFileSync('/proc/cpuinfo', 'utf8');
      const line = info.split('\n').find((l) => /^(flags|Features)\s*:/.test(l)) ?? '';
      return new Set(line.replace(/^[^:]*:/, '').trim().toLowerCase().split(/\s+/));
    }
    if (process.platform === 'darwin') {
      const r = spawnSync('sysctl', ['-n', 'machdep.cpu.features', 'machdep.cpu.leaf7_features'], { encoding: 'utf8' });
      return new Set((r.stdout ?? '').toLowerCase().replace(/\./g, '_').split(/\s+/));
    }
  } catch {
    // Unknown: build without extra flags (slow but correct).
  }
  return new Set();
}

/** Compiler flags for this CPU. x86: AVX/AVX2/FMA/F16C as present; arm64 compilers enable NEON by default. */
export function whisperCflags(features = cpuFeatures(), arch = process.arch, env = process.env) {
  if (env.TINGXIE_WHISPER_CFLAGS) return env.TINGXIE_WHISPER_CFLAGS.trim().split(/\s+/);
  if (env.TINGXIE_WHISPER_NATIVE === '1') return ['-march=native'];
  if (arch !== 'x64' && arch !== 'ia32') return [];
  const flags = [];
  // /proc/cpuinfo says "avx"; macOS sysctl says "avx1_0".
  if (features.has('avx') || features.has('avx1_0')) flags.push('-mavx');
  if (features.has('avx2')) flags.push('-mavx2');
  if (features.has('fma')) flags.push('-mfma');
  if (features.has('f16c')) flags.push('-mf16c');
  if (features.has('sse3') || features.has('pni')) flags.push('-msse3');
  if (features.has('ssse3')) flags.push('-mssse3');
  return flags;
}

/** node-gyp's entry script: the project's copy, else npm's bundled one (next to npm-cli.js). */
function findNodeGyp() {
  const candidates = [];
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not a (transitive) dependency here
  }
  const npmCli = process.env.npm_execpath;
  if (npmCli) candidates.push(path.join(path.dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const which = spawnSync(process.platform === 'win32' ? 'where' : 'which', ['npm'], { encoding: 'utf8' });
  for (const p of (which.stdout ?? '').split(/\r?\n/).filter(Boolean)) {
    try {
      const real = fs.realpathSync(p);
      candidates.push(path.join(path.dirname(real), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
      candidates.push(path.join(path.dirname(real), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
    } catch {
      // broken link
    }
  }
  for (const prefix of ['/usr/lib', '/usr/local/lib', '/opt/homebrew/lib']) {
    candidates.push(path.join(prefix, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  }
  return candidates.find((c) => fs.existsSync(c)) ?? null;
}

/** True when `dir` holds Node headers node-gyp can build a Node-API addon against. */
function hasHeaders(dir) {
  return fs.existsSync(path.join(dir, 'include', 'node', 'node_api.h')) && fs.existsSync(path.join(dir, 'include', 'node', 'common.gypi'));
}

/**
 * A --nodedir for node-gyp, so it never needs to download headers (these machines are offline). npm passes
 * its `nodedir` setting to install scripts as npm_config_nodedir; run by hand we ask npm, then look next to
 * the running node and in the usual system places. Node-API addons build against any recent headers.
 */
function findNodeDir() {
  if (process.env.npm_config_nodedir) return null; // node-gyp reads it itself
  const cached = path.join(os.homedir(), '.cache', 'node-gyp', process.versions.node);
  if (hasHeaders(cached)) return null;
  const npm = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['config', 'get', 'nodedir'], { encoding: 'utf8', shell: process.platform === 'win32' });
  const fromNpm = (npm.stdout ?? '').trim();
  const candidates = [fromNpm, path.resolve(path.dirname(process.execPath), '..'), '/usr', '/usr/local', '/opt/homebrew'];
  return candidates.find((c) => c !== '' && c !== 'undefined' && c !== 'null' && hasHeaders(c)) ?? null;
}

/**
 * The tuned project (Linux only): smart-whisper's own sources plus ggml's llamafile sgemm (faster f16
 * matmuls) and OpenMP threading (ggml's default spin barrier collapses when the cores are busy). Written
 * next to the package's binding.gyp because gyp wants relative source paths. macOS and Windows use the
 * package's own project (Accelerate/Metal on macOS) with the SIMD flags.
 */
function writeTunedProject(pkgDir, flags) {
  const dir = path.join(pkgDir, 'tingxie-build');
  fs.mkdirSync(path.join(dir, 'shim', 'llamafile'), { recursive: true });
  // ggml.c includes <llamafile/sgemm.h>; this snapshot keeps it at ggml/src/sgemm.h.
  fs.writeFileSync(path.join(dir, 'shim', 'llamafile', 'sgemm.h'), '#include "../../../whisper.cpp/ggml/src/sgemm.h"\n');
  // The snapshot's sgemm.cpp predates its headers: give it the CPU helpers (fp16 conversion, intrinsics) first.
  fs.writeFileSync(path.join(dir, 'shim', 'sgemm-shim.cpp'), '#include "ggml-cpu-impl.h"\n#include "sgemm.cpp"\n');
  const ggml = ['ggml.c', 'ggml-alloc.c', 'ggml-backend.c', 'ggml-quants.c', 'ggml-aarch64.c'].map((f) => `../whisper.cpp/ggml/src/${f}`);
  const cflags = [...flags, '-fopenmp'];
  const project = {
    targets: [{
      target_name: 'smart-whisper',
      sources: [...['binding', 'common', 'model', 'transcribe'].map((f) => `../src/binding/${f}.cc`), '../whisper.cpp/src/whisper.cpp', ...ggml, 'shim/sgemm-shim.cpp'],
      defines: ['NDEBUG', 'GGML_USE_LLAMAFILE', 'GGML_USE_OPENMP'],
      include_dirs: ['../node_modules/node-addon-api', '../whisper.cpp/include', '../whisper.cpp/ggml/include', '../whisper.cpp/ggml/src', '../whisper.cpp/examples', 'shim'],
      dependencies: ['../node_modules/node-addon-api/node_api.gyp:nothing'],
      cflags, cflags_cc: cflags, ldflags: ['-fopenmp'],
      'cflags!': ['-fno-exceptions'], 'cflags_cc!': ['-fno-exceptions'],
    }],
  };
  fs.writeFileSync(path.join(dir, 'binding.gyp'), `${JSON.stringify(project, null, 2)}\n`);
  return dir;
}

/** Runs `node-gyp rebuild` in `cwd`; returns the spawn result. */
function runGyp(gyp, cwd, env) {
  const jobs = String(Math.max(1, os.availableParallelism?.() ?? os.cpus().length));
  const nodedir = findNodeDir();
  const gypArgs = [gyp, 'rebuild', '--release', `--jobs=${jobs}`, ...(nodedir === null ? [] : [`--nodedir=${nodedir}`])];
  return spawnSync(process.execPath, gypArgs, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function main() {
  if (process.env.TINGXIE_SKIP_WHISPER_BUILD === '1') {
    console.log('build-whisper: skipped (TINGXIE_SKIP_WHISPER_BUILD=1)');
    return;
  }
  let pkgDir;
  try {
    pkgDir = path.dirname(require.resolve('smart-whisper/package.json'));
  } catch {
    fail('smart-whisper is not installed (is node_modules complete?)');
  }
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  const flags = whisperCflags();
  if (args.includes('--print-flags')) {
    console.log(flags.join(' '));
    return;
  }
  const tuned = process.platform === 'linux' && process.env.TINGXIE_WHISPER_PLAIN !== '1';
  const wanted = {
    smartWhisper: version,
    platform: process.platform,
    arch: process.arch,
    // node-gyp's Release config has -O3 but no -DNDEBUG, which leaves ggml's assert()s in its inner loops.
    cflags: ['-DNDEBUG', ...flags],
    variant: tuned ? 'tuned' : 'package',
    backend: process.env.COMPUTE_BACKEND ?? 'default',
  };
  const addon = path.join(pkgDir, 'build', 'Release', 'smart-whisper.node');
  const stampFile = path.join(pkgDir, 'build', 'Release', STAMP);
  if (!args.includes('--force') && fs.existsSync(addon) && fs.existsSync(stampFile)) {
    try {
      const have = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
      // A tuned build that fell back to the package project is up to date too.
      if (JSON.stringify({ ...have.config, variant: wanted.variant }) === JSON.stringify(wanted)) {
        console.log(`build-whisper: up to date (smart-whisper ${version}, ${have.config.variant}, flags: ${flags.join(' ') || 'none'})`);
        return;
      }
    } catch {
      // unreadable stamp: rebuild
    }
  }
  const gyp = findNodeGyp();
  if (gyp === null) fail('node-gyp not found (neither in node_modules nor next to npm)');

  const flagText = ['-DNDEBUG', ...flags].join(' ');
  console.log(`build-whisper: compiling smart-whisper ${version} (${wanted.variant}; flags: ${flagText}); this takes a minute…`);
  const t0 = Date.now();
  let variant = wanted.variant;
  let r;
  if (tuned) {
    const dir = writeTunedProject(pkgDir, flags);
    r = runGyp(gyp, dir, process.env);
    const built = path.join(dir, 'build', 'Release', 'smart-whisper.node');
    if (r.status === 0 && fs.existsSync(built)) {
      fs.mkdirSync(path.dirname(addon), { recursive: true });
      fs.copyFileSync(built, `${addon}.tmp`);
      fs.renameSync(`${addon}.tmp`, addon); // atomic: a running engine host never loads half a file
    } else {
      console.warn(`build-whisper: the tuned build failed (${r.error?.message ?? `exit ${r.status}`}); falling back to smart-whisper's own project`);
      variant = 'package';
    }
    fs.rmSync(path.join(dir, 'build'), { recursive: true, force: true }); // objects are ~20 MB; the addon was copied
  }
  // `node-gyp rebuild` in the package folder wipes build/ first: keep the working addon to put back on failure.
  const previous = variant === 'package' && fs.existsSync(addon) ? { addon: fs.readFileSync(addon), stamp: fs.existsSync(stampFile) ? fs.readFileSync(stampFile) : null } : null;
  if (variant === 'package') {
    const env = { ...process.env };
    // gyp's make generator appends $CFLAGS/$CXXFLAGS to every compile; the msvs generator ignores them.
    env.CFLAGS = [env.CFLAGS, flagText].filter(Boolean).join(' ');
    env.CXXFLAGS = [env.CXXFLAGS, flagText].filter(Boolean).join(' ');
    r = runGyp(gyp, pkgDir, env);
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if ((r.error || r.status !== 0 || !fs.existsSync(addon)) && previous !== null) {
    fs.mkdirSync(path.dirname(addon), { recursive: true });
    fs.writeFileSync(addon, previous.addon);
    if (previous.stamp !== null) fs.writeFileSync(stampFile, previous.stamp);
  }
  if (r.error) fail(`could not run node-gyp: ${r.error.message}`, '', previous !== null);
  if (r.status !== 0 || !fs.existsSync(addon)) {
    fail(`node-gyp exited with ${r.status ?? r.signal} after ${seconds} s`, `${r.stdout ?? ''}\n${r.stderr ?? ''}`, previous !== null);
  }
  const config = { ...wanted, variant };
  fs.writeFileSync(stampFile, `${JSON.stringify({ config, builtAt: new Date().toISOString(), seconds: Number(seconds) }, null, 2)}\n`);
  console.log(`build-whisper: built ${path.relative(root, addon)} (${variant}) in ${seconds} s`);
}

// Importable (tests read whisperCflags) without building anything.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
