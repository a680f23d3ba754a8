/**
 * The only stand-ins in the browser harness, each for something that cannot run without the Electron
 * binary: safeStorage (the OS keyring) and the two shell actions. Everything else is real.
 */
import type { AppService } from '../../src/main/ipc/services.ts';
import type { SafeStorageLike } from '../../src/main/settings/secrets.ts';
import type { UiLanguage } from '../../src/shared/ipc/wire-types.ts';

/**
 * Stand-in for Electron's safeStorage, which cannot run here: a reversible XOR "cipher" that reports a
 * real Linux keyring backend, so SecretStore picks 'os-keyring' and persists (scrambled) values exactly
 * as it would in the app. It protects nothing and is only for tests.
 */
export const fakeSafeStorage: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
  decryptString: (encrypted) => Buffer.from(encrypted.map((b) => b ^ 0x5a)).toString('utf8'),
  getSelectedStorageBackend: () => 'gnome_libsecret',
};

/** What the recorded shell actions were asked to do. */
export interface ShellRecord {
  readonly openedUrls: string[];
  openLogsCalls: number;
  /** Texts put on the clipboard (app:copy-text), in order. */
  readonly copied: string[];
}

/**
 * AppService for the harness: real facts (version, platform, data folder); the OS actions (opening a
 * browser or file manager) are recorded instead, since there is no desktop here.
 */
export function recordingAppService(opts: {
  readonly version: string;
  readonly dataDir: string;
  readonly uiLanguage: () => UiLanguage;
}): { readonly service: AppService; readonly shell: ShellRecord } {
  const shell: ShellRecord = { openedUrls: [], openLogsCalls: 0, copied: [] };
  const service: AppService = {
    version: opts.version,
    platform: process.platform,
    dataDir: opts.dataDir,
    uiLanguage: opts.uiLanguage,
    openExternal: async (url) => {
      shell.openedUrls.push(url);
    },
    openLogs: async () => {
      shell.openLogsCalls += 1;
    },
    copyText: (text) => {
      shell.copied.push(text);
    },
  };
  return { service, shell };
}
