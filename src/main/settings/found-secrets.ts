import type { Config } from '../../shared/config/config-schema.ts';
import type { FoundSecret } from './config-repair.ts';
import { keyOriginResolver } from './key-origin.ts';
import type { SecretStore } from './secrets.ts';

/**
 * Moves API keys found in config.json (WenZi's `providers.<id>.api_key`, a key in a URL, …) into the secret
 * store, bound to the server their config names, before config.json is backed up or rewritten (the
 * ConfigStore `keepSecrets` step). A key already held under that name wins; the found one is reported.
 * Rejects when a key cannot be stored, so config.json is left as it is.
 */
export async function adoptFoundSecrets(
  found: readonly FoundSecret[],
  config: Config,
  store: SecretStore,
  note: (message: string, fields: Readonly<Record<string, unknown>>) => void = () => undefined,
): Promise<void> {
  // Bound to the origin the file names now: a later base_url change must not carry the key along.
  await store.bindOrigins(keyOriginResolver(() => config));
  for (const f of found) {
    if (store.holds(f.name)) {
      note('an API key found in config.json was not stored: one is already saved under that name', { name: f.name, path: f.path });
      continue;
    }
    await store.adopt(f.name, f.value);
    note('moved an API key from config.json to the secret store', { name: f.name, path: f.path, backend: store.backend });
  }
}
