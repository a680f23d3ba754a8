/** The config and the secret store, opened in the order their files need. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';
import { defaultSpeechModel } from '../asr/model-catalog.ts';
import type { Logger } from '../platform/logger.ts';
import { CONFIG_FILE, ConfigStore } from '../settings/config-store.ts';
import { adoptFoundSecrets } from '../settings/found-secrets.ts';
import { keyOriginResolver } from '../settings/key-origin.ts';
import { SecretStore, SECRETS_FILE } from '../settings/secrets.ts';
import { electronSafeStorage } from '../settings/secrets-electron.ts';
import { resolveUiLanguage } from './startup-language.ts';

/** Opens config.json, waits for 'ready', then opens the secret store and binds each key to its server. */
export async function openConfigAndSecrets(dataDir: string, log: Logger): Promise<{ readonly config: ConfigStore; readonly secrets: SecretStore }> {
  // safeStorage answers only after 'ready'; the store is opened early only when config.json holds keys,
  // which must be in it before the file is backed up or rewritten.
  let openedSecrets: SecretStore | undefined;
  const openSecrets = async (plaintextConsent: boolean): Promise<SecretStore> => {
    await app.whenReady();
    openedSecrets ??= await SecretStore.open({ file: join(dataDir, SECRETS_FILE), safeStorage: electronSafeStorage(), plaintextConsent });
    return openedSecrets;
  };
  // A new install (no config.json yet) starts with the speech model the setup guide recommends for its language.
  const newInstall = !existsSync(join(dataDir, CONFIG_FILE));
  const config = await ConfigStore.open({
    dataDir,
    keepSecrets: async (found, c) => adoptFoundSecrets(found, c, await openSecrets(c.secrets.plaintext_consent), (m, f) => log.info(m, f)),
  });
  for (const issue of config.loadIssues) log.warn('config field fell back to its default', { ...issue });
  if (config.backupPath) log.warn('the original config.json was kept as a backup', { backupPath: config.backupPath });

  await app.whenReady();
  // After 'ready': the UI language of `system` is the OS locale, which Electron reports reliably only then.
  if (newInstall) {
    const model = defaultSpeechModel(resolveUiLanguage(config.get().ui.language));
    await config.set('asr.local.model', model).catch((err: unknown) => log.warn('could not set the new install\'s speech model', { model, error: err }));
  }

  const secrets = await openSecrets(config.get().secrets.plaintext_consent);
  for (const issue of secrets.loadIssues) log.warn('secret store problem', { issue });
  // Each key is sent only to the server it was entered for; keys saved before this rule are bound to today's.
  await secrets.bindOrigins(keyOriginResolver(() => config.get())).catch((err: unknown) => log.error('could not bind API keys to their servers', { error: err }));
  return { config, secrets };
}
