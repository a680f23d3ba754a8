import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { unpackedPath } from '../platform/unpacked-path.ts';

/*
 * Where smart-whisper's compiled addon lives. We load build/Release/smart-whisper.node directly rather than
 * the package's index.js: that module creates ~/.smart-whisper on import and brings a model downloader we
 * do not want. scripts/build-whisper.mjs compiles the addon at install; without a compiler it is absent
 * and local ASR reports "engine not built".
 */

// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);

/**
 * Path of the compiled addon (TINGXIE_WHISPER_ADDON overrides). In a packaged app it is the unpacked
 * copy: Electron's dlopen would find it from the app.asar path too, but native code and the existence
 * check should see the file that is really on disk.
 */
export function whisperAddonPath(env: NodeJS.ProcessEnv = process.env, resolve: (id: string) => string = nodeRequire.resolve): string {
  const override = env.TINGXIE_WHISPER_ADDON;
  if (override !== undefined && override !== '') return override;
  try {
    return unpackedPath(path.join(path.dirname(resolve('smart-whisper/package.json')), 'build', 'Release', 'smart-whisper.node'));
  } catch {
    return path.join('node_modules', 'smart-whisper', 'build', 'Release', 'smart-whisper.node');
  }
}

/** True when the addon has been compiled. */
export function isEngineBuilt(env: NodeJS.ProcessEnv = process.env): boolean {
  return fs.existsSync(whisperAddonPath(env));
}

/** The message shown when it has not. */
export const ENGINE_NOT_BUILT_MESSAGE =
  'the local speech engine is not built (whisper.cpp needs a C/C++ compiler at install time); run: node scripts/build-whisper.mjs';
