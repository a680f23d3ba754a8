#!/usr/bin/env node
// Compiles smart-whisper's native addon (whisper.cpp + ggml) in the variants the app picks from at run time.
//
// Why a script of our own: npm 11 blocks dependency install scripts (package.json allowScripts has
// smart-whisper: false), and smart-whisper's own `node-gyp rebuild` compiles ggml without any AVX, which
// is ~7-10x slower on x86. An addon compiled with -mavx2 crashes (SIGILL) on a CPU without AVX2, and the
// packaged app must run on every x64 CPU, so on x86 two variants are built with fixed flags (never the
// build machine's -march=native):
//   avx2      -mavx -mavx2 -mfma -mf16c (+SSE3/SSSE3): full speed on Intel Haswell / AMD Excavator and later
//   baseline  -msse3 only: any x64 CPU Electron runs on (Chromium itself requires SSE3)
// and src/main/asr/whisper-variant.ts loads the one the CPU can run. Other architectures (arm64: NEON is
// always there; on macOS also Metal, smart-whisper's default on Apple silicon) get one `default` variant.
// Each lands in node_modules/smart-whisper/build/Release/smart-whisper-<variant>.node (on Apple silicon
// with ggml-metal.metal beside it, the shader source Metal compiles at first use). A stamp
// (tingxie-build.json) makes `npm install` instant when every variant is built with the same flags.
//
// Run by `npm install`/`npm ci` (postinstall). A missing compiler must not break `npm install`: then we
// print why and exit 0, and local ASR reports "engine not built" at run time. Run by hand it exits 1 on
// failure.
//
// Usage: node scripts/build-whisper.mjs [--force] [--print-flags] [--variant NAME]...
// Env:   TINGXIE_SKIP_WHISPER_BUILD=1   skip entirely
//        TINGXIE_WHISPER_VARIANTS=a,b   build only these variants (default: all of this architecture)
//        TINGXIE_WHISPER_PLAIN=1        Linux: smart-whisper's own project instead of the tuned one
//        TINGXIE_WHISPER_NATIVE=1       the fast variant (avx2 on x86) with -march=native (local development only)
//        TINGXIE_WHISPER_CFLAGS="..."   the fast variant with these flags instead (local development only)
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

// Keep in step with src/main/asr/whisper-variant.ts (test/unit/main/asr/build-whisper.test.ts checks it).
const AVX2_FLAGS = ['-mavx', '-mavx2', '-mfma', '-mf16c', '-msse3', '-mssse3'];
const BASELINE_FLAGS = ['-msse3'];

/** The addon file of a variant, in build/Release. */
export function addonFileName(variant) {
  return `smart-whisper-${variant}.node`;
}

/**
 * The variants to build for `arch`, fastest first, each with its compiler flags (gcc/clang syntax; on
 * Windows {@link msvcOptions} translates them). x86: avx2 + baseline; everything else: default.
 */
export function whisperVariants(arch = process.arch, env = process.env) {
  const x86 = arch === 'x64' || arch === 'ia32';
  let fast = x86 ? [...AVX2_FLAGS] : [];
  if (env.TINGXIE_WHISPER_CFLAGS) fast = env.TINGXIE_WHISPER_CFLAGS.trim().split(/\s+/);
  else if (env.TINGXIE_WHISPER_NATIVE === '1') fast = ['-march=native'];
  const all = x86 ? [{ name: 'avx2', flags: fast }, { name: 'baseline', flags: [...BASELINE_FLAGS] }] : [{ name: 'default', flags: fast }];
  const only = (env.TINGXIE_WHISPER_VARIANTS ?? '').split(',').map((v) => v.trim()).filter(Boolean);
  return only.length === 0 ? all : all.filter((v) => only.includes(v.name));
}

/** MSVC options for a variant's flags: /arch:AVX2 for the AVX2 set (MSVC then implies FMA and F16C); x64 MSVC is SSE2 otherwise. */
export function msvcOptions(flags) {
  const opts = ['/DNDEBUG'];
  if (flags.includes('-mavx2')) opts.push('/arch:AVX2');
  else if (flags.includes('-mavx')) opts.push('/arch:AVX');
  return opts;
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
 * to tingxie-build/<variant>/ inside the package, because gyp wants relative source paths. macOS and
 * Windows use the package's own project (Accelerate, and Metal on Apple silicon) with the variant's flags.
 */
function writeTunedProject(pkgDir, variant, flags) {
  const base = path.join(pkgDir, 'tingxie-build');
  const dir = path.join(base, variant);
  fs.mkdirSync(path.join(base, 'shim', 'llamafile'), { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(path.join(base, 'binding.gyp'), { force: true }); // the single-build layout of earlier versions
  // ggml.c includes <llamafile/sgemm.h>; this snapshot keeps it at ggml/src/sgemm.h.
  fs.writeFileSync(path.join(base, 'shim', 'llamafile', 'sgemm.h'), '#include "../../../whisper.cpp/ggml/src/sgemm.h"\n');
  // The snapshot's sgemm.cpp predates its headers: give it the CPU helpers (fp16 conversion, intrinsics) first.
  fs.writeFileSync(path.join(base, 'shim', 'sgemm-shim.cpp'), '#include "ggml-cpu-impl.h"\n#include "sgemm.cpp"\n');
  const up = '../..';
  const ggml = ['ggml.c', 'ggml-alloc.c', 'ggml-backend.c', 'ggml-quants.c', 'ggml-aarch64.c'].map((f) => `${up}/whisper.cpp/ggml/src/${f}`);
  const cflags = [...flags, '-fopenmp'];
  const project = {
    targets: [{
      target_name: 'smart-whisper',
      sources: [...['binding', 'common', 'model', 'transcribe'].map((f) => `${up}/src/binding/${f}.cc`), `${up}/whisper.cpp/src/whisper.cpp`, ...ggml, '../shim/sgemm-shim.cpp'],
      defines: ['NDEBUG', 'GGML_USE_LLAMAFILE', 'GGML_USE_OPENMP'],
      include_dirs: [`${up}/node_modules/node-addon-api`, `${up}/whisper.cpp/include`, `${up}/whisper.cpp/ggml/include`, `${up}/whisper.cpp/ggml/src`, `${up}/whisper.cpp/examples`, '../shim'],
      dependencies: [`${up}/node_modules/node-addon-api/node_api.gyp:nothing`],
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

/** Environment for the package's own project: the flags through $CFLAGS/$CXXFLAGS (gyp's make generator), or $CL for MSVC (msbuild ignores $CFLAGS). */
function packageProjectEnv(flags) {
  const env = { ...process.env };
  if (process.platform === 'win32') {
    env.CL = [env.CL, ...msvcOptions(flags)].filter(Boolean).join(' ');
  } else {
    const text = ['-DNDEBUG', ...flags].join(' ');
    env.CFLAGS = [env.CFLAGS, text].filter(Boolean).join(' ');
    env.CXXFLAGS = [env.CXXFLAGS, text].filter(Boolean).join(' ');
  }
  return env;
}

/** True when the package's own project compiles ggml's Metal backend here (smart-whisper's default on Apple silicon). */
function packageUsesMetal(pkgDir) {
  if (process.platform !== 'darwin') return false;
  try {
    return String(require(path.join(pkgDir, 'dist', 'build.js')).defines).includes('GGML_USE_METAL');
  } catch {
    return false;
  }
}

/** Reads the stamp; null when absent or unreadable. */
function readStamp(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Copies `from` to `to` atomically (a running engine host never loads half a file). */
function placeFile(from, to) {
  fs.copyFileSync(from, `${to}.tmp`);
  fs.renameSync(`${to}.tmp`, to);
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
  const requested = args.flatMap((a, i) => (a === '--variant' && args[i + 1] ? [args[i + 1]] : []));
  const all = whisperVariants();
  const unknown = requested.filter((n) => !all.some((v) => v.name === n));
  if (unknown.length > 0) fail(`unknown variant ${unknown.join(', ')} (this machine builds: ${all.map((v) => v.name).join(', ')})`);
  const variants = requested.length === 0 ? all : all.filter((v) => requested.includes(v.name));
  if (args.includes('--print-flags')) {
    for (const v of variants) console.log(`${v.name}: ${v.flags.join(' ') || '(compiler defaults)'}`);
    return;
  }
  const project = process.platform === 'linux' && process.env.TINGXIE_WHISPER_PLAIN !== '1' ? 'tuned' : 'package';
  const release = path.join(pkgDir, 'build', 'Release');
  const stampFile = path.join(release, STAMP);
  const base = { smartWhisper: version, platform: process.platform, arch: process.arch, backend: process.env.COMPUTE_BACKEND ?? 'default' };
  const previous = readStamp(stampFile);
  const sameBase = previous !== null && JSON.stringify(previous.base) === JSON.stringify(base);
  // node-gyp's Release config has -O3 but no -DNDEBUG, which leaves ggml's assert()s in its inner loops.
  const cflagsOf = (v) => ['-DNDEBUG', ...v.flags];
  const upToDate = (v) => {
    const had = sameBase ? previous.variants?.[v.name] : undefined;
    return had !== undefined && had.project === project && JSON.stringify(had.cflags) === JSON.stringify(cflagsOf(v)) && fs.existsSync(path.join(release, addonFileName(v.name)));
  };
  const todo = args.includes('--force') ? variants : variants.filter((v) => !upToDate(v));
  if (todo.length === 0) {
    console.log(`build-whisper: up to date (smart-whisper ${version}; ${variants.map((v) => `${v.name}: ${v.flags.join(' ') || 'defaults'}`).join('; ')})`);
    return;
  }
  const gyp = findNodeGyp();
  if (gyp === null) fail('node-gyp not found (neither in node_modules nor next to npm)');

  // `node-gyp rebuild` in the package folder wipes build/: keep what is there to put back afterwards.
  const kept = fs.existsSync(release)
    ? fs.readdirSync(release).filter((f) => /^smart-whisper-.+\.node$|^ggml-metal\.metal$/.test(f)).map((f) => ({ name: f, bytes: fs.readFileSync(path.join(release, f)) }))
    : [];
  const restore = () => {
    fs.mkdirSync(release, { recursive: true });
    for (const k of kept) if (!fs.existsSync(path.join(release, k.name))) fs.writeFileSync(path.join(release, k.name), k.bytes);
  };
  const staged = path.join(pkgDir, 'tingxie-build', 'staged');
  fs.mkdirSync(staged, { recursive: true });
  const built = {};
  const metal = packageUsesMetal(pkgDir) && project === 'package';
  for (const v of todo) {
    const t0 = Date.now();
    let used = project;
    console.log(`build-whisper: compiling smart-whisper ${version}, variant ${v.name} (${project}; flags: ${cflagsOf(v).join(' ')}${metal ? '; Metal' : ''}); this takes a minute…`);
    let r;
    let output;
    if (project === 'tuned') {
      const dir = writeTunedProject(pkgDir, v.name, v.flags);
      r = runGyp(gyp, dir, process.env);
      output = path.join(dir, 'build', 'Release', 'smart-whisper.node');
      if (r.status === 0 && fs.existsSync(output)) {
        fs.copyFileSync(output, path.join(staged, addonFileName(v.name)));
      } else {
        console.warn(`build-whisper: the tuned build of ${v.name} failed (${r.error?.message ?? `exit ${r.status}`}); falling back to smart-whisper's own project`);
        used = 'package';
      }
      fs.rmSync(path.join(dir, 'build'), { recursive: true, force: true }); // objects are ~20 MB; the addon was copied
    }
    if (used === 'package') {
      r = runGyp(gyp, pkgDir, packageProjectEnv(v.flags));
      output = path.join(release, 'smart-whisper.node');
      if (r.status === 0 && fs.existsSync(output)) fs.copyFileSync(output, path.join(staged, addonFileName(v.name)));
      fs.rmSync(output, { force: true }); // the package's own name: never loaded, never packaged
      restore();
    }
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    if (r.error) fail(`could not run node-gyp: ${r.error.message}`, '', kept.length > 0);
    if (r.status !== 0 || !fs.existsSync(path.join(staged, addonFileName(v.name)))) {
      fail(`node-gyp exited with ${r.status ?? r.signal} after ${seconds} s (variant ${v.name})`, `${r.stdout ?? ''}\n${r.stderr ?? ''}`, kept.length > 0);
    }
    built[v.name] = { cflags: cflagsOf(v), project, built: used, file: addonFileName(v.name), metal: metal && used === 'package', seconds: Number(seconds), builtAt: new Date().toISOString() };
    console.log(`build-whisper: built ${v.name} (${used}) in ${seconds} s`);
  }
  fs.mkdirSync(release, { recursive: true });
  for (const name of Object.keys(built)) placeFile(path.join(staged, addonFileName(name)), path.join(release, addonFileName(name)));
  fs.rmSync(staged, { recursive: true, force: true });
  // Metal compiles this shader source at first use; the engine host points GGML_METAL_PATH_RESOURCES here.
  if (Object.values(built).some((b) => b.metal)) placeFile(path.join(pkgDir, 'whisper.cpp', 'ggml', 'src', 'ggml-metal.metal'), path.join(release, 'ggml-metal.metal'));
  // An addon of an older layout (smart-whisper.node, built for the build machine's CPU) must not be packaged.
  fs.rmSync(path.join(release, 'smart-whisper.node'), { force: true });
  const keptVariants = sameBase ? Object.fromEntries(Object.entries(previous.variants ?? {}).filter(([n]) => !(n in built) && fs.existsSync(path.join(release, addonFileName(n))))) : {};
  fs.writeFileSync(stampFile, `${JSON.stringify({ base, variants: { ...keptVariants, ...built } }, null, 2)}\n`);
  for (const n of fs.readdirSync(release)) {
    const m = /^smart-whisper-(.+)\.node$/.exec(n);
    if (m && !(m[1] in keptVariants) && !(m[1] in built)) fs.rmSync(path.join(release, n)); // built for another base (version, arch)
  }
  console.log(`build-whisper: ${path.relative(root, release)}: ${Object.keys({ ...keptVariants, ...built }).map(addonFileName).join(', ')}`);
}

// Importable (tests read the variants) without building anything.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
