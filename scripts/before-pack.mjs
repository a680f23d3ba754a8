// electron-builder's beforePack hook (electron-builder.yml): refuses to package native parts built for
// another machine. The whisper addon is compiled by `npm install` (scripts/build-whisper.mjs) for the
// platform and architecture of the machine that ran it, and sherpa-onnx and koffi install only that
// machine's binaries, so electron-builder cannot make e.g. an arm64 macOS package on an x64 Mac or a
// Windows package on Linux: each is built on its own runner (see docs/dev/PACKAGING-AND-SIGNING.md,
// "Building the installers").
// Without this check such a package builds fine and its local engine fails on the user's machine.
import fs from 'node:fs';
import path from 'node:path';
import { addonFileName, whisperVariants } from './build-whisper.mjs';

const root = path.resolve(import.meta.dirname, '..');
// electron-builder's Arch enum (builder-util): the numbers its hooks receive.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/**
 * The problems that make a package for `platform`/`arch` unusable, given the node_modules in `dir`;
 * warnings for what is missing but not fatal (a checkout where the engine could not be compiled).
 */
export function nativePartsProblems(platform, arch, dir = root) {
  const errors = [];
  const warnings = [];
  const target = `${platform}-${arch}`;
  const redo = `run \`npm ci\` on a ${target} machine (native parts are built or installed for the machine that installs them; electron-builder cannot cross-compile them)`;
  if (arch === 'universal') {
    errors.push(`universal macOS packages are not supported: package arm64 and x64 separately, each on its own machine`);
    return { errors, warnings };
  }
  const release = path.join(dir, 'node_modules', 'smart-whisper', 'build', 'Release');
  let stamp = null;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(release, 'tingxie-build.json'), 'utf8'));
  } catch {
    // not built
  }
  if (stamp === null || stamp.base === undefined) {
    warnings.push(`the local speech engine is not built (node scripts/build-whisper.mjs): this package will only offer the remote engine`);
  } else {
    const built = `${stamp.base.platform}-${stamp.base.arch}`;
    if (built !== target) errors.push(`the whisper addon was built for ${built}, this package is ${target}: ${redo}`);
    else {
      const missing = whisperVariants(arch, {}).map((v) => v.name).filter((v) => !fs.existsSync(path.join(release, addonFileName(v))));
      if (missing.length > 0) errors.push(`whisper addon variant(s) ${missing.join(', ')} missing: run node scripts/build-whisper.mjs`);
    }
  }
  // sherpa-onnx names its Windows packages "win", koffi "win32".
  const needed = [
    [`sherpa-onnx-${platform === 'win32' ? 'win' : platform}-${arch}`, 'voice activity detection'],
    [`@koromix/koffi-${target}`, 'the Win32 and macOS system calls'],
  ];
  for (const [pkg, use] of needed) {
    if (!fs.existsSync(path.join(dir, 'node_modules', pkg, 'package.json'))) errors.push(`${pkg} (${use}) is not installed: ${redo}`);
  }
  return { errors, warnings };
}

/** The hook electron-builder calls before it packs each platform/architecture. */
export async function beforePack(context) {
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  const { errors, warnings } = nativePartsProblems(context.electronPlatformName, arch);
  for (const w of warnings) console.warn(`  • tingxie: ${w}`);
  if (errors.length > 0) throw new Error(`cannot package Tingxie for ${context.electronPlatformName}-${arch}:\n  - ${errors.join('\n  - ')}`);
}

export default beforePack;
