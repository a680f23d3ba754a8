import { safeStorage } from 'electron';
import type { SafeStorageLike } from './secrets.ts';

/** Electron's safeStorage seen through the narrow interface secrets.ts needs (the only electron import here). */
export function electronSafeStorage(): SafeStorageLike {
  return {
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
    encryptString: (s) => safeStorage.encryptString(s),
    decryptString: (b) => safeStorage.decryptString(b),
    getSelectedStorageBackend: process.platform === 'linux' ? () => safeStorage.getSelectedStorageBackend() : undefined,
  };
}
