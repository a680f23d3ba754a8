import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { unpackedPath } from '../platform/unpacked-path.ts';
import { chooseWhisperVariant, thisCpuSimd, whisperAddonFileName, type CpuSimd, type VariantChoice, type WhisperVariant } from './whisper-variant.ts';

/*
 * Where smart-whisper's compiled addon lives. We load build/Release/smart-whisper-<variant>.node directly
 * rather than the package's index.js: that module creates ~/.smart-whisper on import and brings a model
 * downloader we do not want. scripts/build-whisper.mjs compiles the variants at install (whisper-variant.ts
 * says which this CPU runs); without a compiler they are absent and local ASR reports "engine not built".
 */

// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);

/** The addon to load and why that build (the engine host logs it: a crash report then names the build). */
export interface WhisperAddon extends VariantChoice {
  readonly path: string;
}

/** How {@link whisperAddon} looks at the machine (replaced in tests). */
export interface WhisperAddonDeps {
  readonly resolve?: (id: string) => string;
  readonly arch?: string;
  readonly cpu?: () => CpuSimd;
  readonly exists?: (file: string) => boolean;
  /** Whether this is a packaged app (default: {@link runsPackaged}); a packaged app ignores the path override. */
  readonly packaged?: boolean;
}

/**
 * Environment variables that point native code at another file. A development aid only: in a packaged app
 * they would let anything that can set the user's environment make Tingxie load any `.node` file, so a
 * packaged app ignores them (here, in the engine host) and does not pass them on (whisperHostEnv, in main).
 */
export const NATIVE_PATH_OVERRIDES: readonly string[] = ['TINGXIE_WHISPER_ADDON'];

/**
 * Whether code in `dir` runs from a packaged app. The engine host has no `app.isPackaged`, but a packaged
 * app's code always lives in resources/app.asar (the OnlyLoadAppFromAsar fuse, electron-builder.yml, makes
 * Electron load it from nowhere else).
 */
export function runsPackaged(dir: string = import.meta.dirname): boolean {
  return /[\\/]app\.asar(?:[\\/]|$)/.test(dir);
}

/** The folder holding the compiled variants (in a packaged app the unpacked copy: native code must see the real file). */
function releaseDir(resolve: (id: string) => string): string {
  try {
    return unpackedPath(path.join(path.dirname(resolve('smart-whisper/package.json')), 'build', 'Release'));
  } catch {
    return path.join('node_modules', 'smart-whisper', 'build', 'Release');
  }
}

/**
 * The addon build this machine loads (TINGXIE_WHISPER_VARIANT picks among the builds shipped; in development
 * only, TINGXIE_WHISPER_ADDON overrides the path).
 */
export function whisperAddon(env: NodeJS.ProcessEnv = process.env, deps: WhisperAddonDeps = {}): WhisperAddon {
  const override = env.TINGXIE_WHISPER_ADDON;
  const packaged = deps.packaged ?? runsPackaged();
  if (!packaged && override !== undefined && override !== '') return { path: override, variant: 'default', reason: 'TINGXIE_WHISPER_ADDON' };
  const dir = releaseDir(deps.resolve ?? nodeRequire.resolve);
  const exists = deps.exists ?? fs.existsSync;
  const fileOf = (v: WhisperVariant): string => path.join(dir, whisperAddonFileName(v));
  const choice = chooseWhisperVariant({ arch: deps.arch ?? process.arch, env, cpu: deps.cpu ?? thisCpuSimd, built: (v) => exists(fileOf(v)) });
  return { ...choice, path: fileOf(choice.variant) };
}

/** Path of the addon build this machine loads (see {@link whisperAddon}). */
export function whisperAddonPath(env: NodeJS.ProcessEnv = process.env, deps: WhisperAddonDeps = {}): string {
  return whisperAddon(env, deps).path;
}

/** True when the addon build this machine loads has been compiled. */
export function isEngineBuilt(env: NodeJS.ProcessEnv = process.env): boolean {
  return fs.existsSync(whisperAddonPath(env));
}

/**
 * Whether whisper.cpp should use the GPU: only Apple silicon, where smart-whisper compiles the Metal
 * backend by default (elsewhere the builds are CPU-only, and the flag would do nothing).
 * TINGXIE_WHISPER_GPU=0 turns it off.
 */
export function whisperUsesGpu(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, arch: string = process.arch): boolean {
  return platform === 'darwin' && arch === 'arm64' && env.TINGXIE_WHISPER_GPU !== '0';
}

/**
 * The engine host's environment: on Apple silicon GGML_METAL_PATH_RESOURCES names the folder of the
 * addon, where scripts/build-whisper.mjs put ggml-metal.metal (Metal compiles it at the first model load
 * and otherwise looks in the main bundle and the cwd, where it is not). Set at launch, because macOS
 * reads the process environment for it; the host sets it itself too when started without it.
 */
export function whisperHostEnv(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
  packaged: boolean = runsPackaged(),
): NodeJS.ProcessEnv {
  const own = { ...env };
  // A packaged app does not hand native-path overrides to the engine host (which ignores them too).
  if (packaged) for (const name of NATIVE_PATH_OVERRIDES) delete own[name];
  if (!whisperUsesGpu(own, platform, arch) || own.GGML_METAL_PATH_RESOURCES !== undefined) return own;
  return { ...own, GGML_METAL_PATH_RESOURCES: path.dirname(whisperAddonPath(own, { arch, packaged })) };
}

/** The message shown when it has not. */
export const ENGINE_NOT_BUILT_MESSAGE =
  'the local speech engine is not built (whisper.cpp needs a C/C++ compiler at install time); run: node scripts/build-whisper.mjs';
