import type { Config } from '../../shared/config/config-schema.ts';
import { ASR_REMOTE_SECRET } from '../../shared/secret-names.ts';
import type { OriginResolver } from './secrets.ts';

/*
 * A stored API key belongs to the server it was entered for, not to a provider id: when `base_url` is
 * re-pointed to another host, the key stays unsent until the user enters it again for that host
 * (secrets.ts `mismatch`). The origin is scheme + host + port, so a new path on the same server is fine.
 */

/** `https://api.example.com:8443` for any URL on that server; undefined when the text is not a URL. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

/** The origin a secret's service points to in `config`: `provider:<id>` → its base_url, `asr:remote` → the remote ASR URL. */
export function secretOrigin(config: Config, name: string): string | undefined {
  if (name === ASR_REMOTE_SECRET) return originOf(config.asr.remote.base_url);
  if (name.startsWith('provider:')) {
    const p = config.ai_enhance.providers[name.slice('provider:'.length)];
    return p === undefined ? undefined : originOf(p.base_url);
  }
  return undefined;
}

/** The resolver SecretStore.bindOrigins takes, reading the live config each time. */
export function keyOriginResolver(config: () => Config): OriginResolver {
  return (name) => secretOrigin(config(), name);
}
