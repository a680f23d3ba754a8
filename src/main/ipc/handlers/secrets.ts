/** `secrets:*` handlers: names and persistence go back to the renderer, values never do. */
import type { SecretsStatus } from '../../../shared/ipc/wire-types.ts';
import type { IpcHandlers } from '../dispatcher.ts';
import type { SecretService } from '../services.ts';

/** The secret store's status as it crosses IPC. */
export function secretsStatus(secrets: SecretService): SecretsStatus {
  return {
    backend: secrets.backend,
    secrets: secrets.list().map((s) => ({ name: s.name, persisted: s.persisted })),
    issues: [...secrets.loadIssues],
  };
}

/** Handlers for secrets:status, secrets:set and secrets:delete. */
export function secretsHandlers(secrets: SecretService): Pick<IpcHandlers, 'secrets:status' | 'secrets:set' | 'secrets:delete'> {
  return {
    'secrets:status': () => secretsStatus(secrets),
    'secrets:set': async ({ name, value }) => {
      await secrets.set(name, value);
      return secretsStatus(secrets);
    },
    'secrets:delete': async ({ name }) => {
      await secrets.delete(name);
      return secretsStatus(secrets);
    },
  };
}
