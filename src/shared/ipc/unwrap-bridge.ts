/**
 * Turns the envelope-returning bridge the preload exposes into the one renderer code uses, whose
 * methods resolve to the value or reject with a {@link BridgeCallError}. Zod-free and environment-free.
 */
import { camelCase, invokeChannels, splitChannel } from './channels.ts';
import type { TingxieBridge, TingxieWireBridge } from './bridge-types.ts';
import { unwrapEnvelope } from './envelope.ts';

type AnyMethod = (...args: readonly unknown[]) => Promise<unknown>;

/** Wraps every method of `wire` so a failed envelope becomes a rejection; `on` is passed through. */
export function unwrapBridge(wire: TingxieWireBridge): TingxieBridge {
  const domains: Record<string, Record<string, AnyMethod>> = {};
  for (const channel of invokeChannels) {
    const { domain, verb } = splitChannel(channel);
    const name = camelCase(verb);
    const wireDomain = (wire as unknown as Record<string, Record<string, AnyMethod> | undefined>)[domain];
    const method = wireDomain?.[name];
    const target = (domains[domain] ??= {});
    target[name] = async (...args: readonly unknown[]) => {
      if (typeof method !== 'function') {
        // An older/foreign preload: say which capability is missing instead of "undefined is not a function".
        throw new Error(`The Tingxie bridge has no ${domain}.${name} (channel ${channel}); is the preload up to date?`);
      }
      return unwrapEnvelope(await method(...args), channel);
    };
  }
  for (const methods of Object.values(domains)) Object.freeze(methods);
  return Object.freeze({ ...domains, on: wire.on }) as unknown as TingxieBridge;
}
