/** `config:*` handlers: thin wrappers over the ConfigStore. */
import { ConfigValidationError } from '../../settings/config-store.ts';
import type { ConfigSnapshot } from '../../../shared/ipc/wire-types.ts';
import type { IpcHandlers } from '../dispatcher.ts';
import { IpcPayloadError } from '../errors.ts';
import type { ConfigService } from '../services.ts';

/** The config as plain JSON for the wire (the store's snapshot is deep-frozen and typed by its schema). */
export function toConfigSnapshot(config: unknown): ConfigSnapshot {
  return JSON.parse(JSON.stringify(config)) as ConfigSnapshot;
}

/** Handlers for config:get, config:set and config:issues. */
export function configHandlers(config: ConfigService): Pick<IpcHandlers, 'config:get' | 'config:set' | 'config:issues'> {
  return {
    'config:get': () => toConfigSnapshot(config.get()),
    'config:set': async ({ keyPath, value }) => {
      try {
        return toConfigSnapshot(await config.set(keyPath, value));
      } catch (error) {
        // An unknown key or a value the schema refuses is the caller's mistake: report it as such, with issues.
        if (error instanceof ConfigValidationError) throw new IpcPayloadError(error.message, error.issues);
        throw error;
      }
    },
    'config:issues': () => ({
      path: config.path,
      loadIssues: config.loadIssues.map((i) => ({ path: i.path, message: i.message })),
      backupPath: config.backupPath,
    }),
  };
}
