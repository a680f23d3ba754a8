/**
 * Finds a runnable Electron executable WITHOUT `require('electron')`: since Electron 42 that require
 * downloads the binary on first use, which hangs or fails offline. Same rules as electron's own
 * index.js: `path.txt` names the executable inside `dist/`, and ELECTRON_OVERRIDE_DIST_PATH replaces
 * `dist/`. Returns null when there is no binary; `electronSkipReason` says what to do about it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Executable name inside the dist folder per platform, when path.txt is missing. */
function defaultExecutable(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'Electron.app/Contents/MacOS/Electron';
    case 'win32':
      return 'electron.exe';
    default:
      return 'electron';
  }
}

/** Absolute path of the Electron executable, or null when none is installed. */
export function findElectron(env: NodeJS.ProcessEnv = process.env): string | null {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : defaultExecutable(process.platform);
  const distDir = env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDir, 'dist');
  const exe = join(distDir, relative);
  try {
    return statSync(exe).isFile() ? exe : null;
  } catch {
    return null;
  }
}

/** Why Electron tests are skipped here (printed by the e2e suite). */
export const electronSkipReason =
  'no Electron binary: node_modules/electron/dist missing; set ELECTRON_OVERRIDE_DIST_PATH or run npx install-electron';
