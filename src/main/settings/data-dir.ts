import os from 'node:os';
import path from 'node:path';

/** The product name Electron uses for the userData folder. */
export const PRODUCT_NAME = 'Tingxie';

/**
 * The app-data folder: TINGXIE_DATA_DIR when set, else what Electron's app.getPath('userData') gives for
 * productName "Tingxie" (macOS ~/Library/Application Support/Tingxie, Windows %APPDATA%\Tingxie, Linux
 * $XDG_CONFIG_HOME/Tingxie or ~/.config/Tingxie). Computed without Electron so the CLI agrees with the app.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env.TINGXIE_DATA_DIR;
  if (override !== undefined && override.trim() !== '') return path.resolve(override);
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  switch (platform) {
    case 'darwin':
      return path.posix.join(home, 'Library', 'Application Support', PRODUCT_NAME);
    case 'win32': {
      const appData = env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming');
      return path.win32.join(appData, PRODUCT_NAME);
    }
    default: {
      // Electron (like Chromium) ignores a relative XDG_CONFIG_HOME, as the XDG spec asks.
      const xdg = env.XDG_CONFIG_HOME;
      const base = xdg !== undefined && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
      return path.posix.join(base, PRODUCT_NAME);
    }
  }
}
