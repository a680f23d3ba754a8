/**
 * Builds the object the preload exposes as `window.tingxie`, over any transport: Electron's
 * ipcRenderer in the preload, something else in browser tests, so both run the very same code.
 */
import {
  eventChannels,
  eventMethodName,
  camelCase,
  invokeChannelArity,
  invokeChannels,
  splitChannel,
} from '../shared/ipc/channels.ts';
import type { EventChannel, InvokeChannel } from '../shared/ipc/channels.ts';
import type { Envelope, TingxieWireBridge } from '../shared/ipc/bridge-types.ts';
import { failure } from '../shared/ipc/envelope.ts';

/** How the bridge reaches main: one request/response call and one event subscription. */
export interface BridgeTransport {
  /** Sends one call; resolves to main's envelope. */
  invoke(channel: InvokeChannel, payload: unknown): Promise<unknown>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  subscribe(event: EventChannel, listener: (payload: unknown) => void): () => void;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The bridge: one method per channel (resolving to the envelope, never rejecting) and `on.<event>`
 * subscriptions returning unsubscribe functions. Methods send at most one argument, and none for
 * channels that take no payload, so extra arguments never leak over IPC.
 */
export function createBridge(transport: BridgeTransport): TingxieWireBridge {
  const domains: Record<string, Record<string, (...args: readonly unknown[]) => Promise<Envelope<unknown>>>> = {};
  for (const channel of invokeChannels) {
    const { domain, verb } = splitChannel(channel);
    const takesPayload = invokeChannelArity[channel] === 1;
    const target = (domains[domain] ??= {});
    target[camelCase(verb)] = async (...args: readonly unknown[]) => {
      try {
        // The main side validates; the envelope is returned as received and checked by unwrapEnvelope.
        return (await transport.invoke(channel, takesPayload ? args[0] : undefined)) as Envelope<unknown>;
      } catch (error) {
        // A transport failure (e.g. no handler registered yet) still arrives as data, never as a throw.
        return failure('handler-failed', `${channel}: ${errorMessage(error)}`);
      }
    };
  }

  const on: Record<string, (listener: (payload: unknown) => void) => () => void> = {};
  for (const event of eventChannels) {
    on[eventMethodName(event)] = (listener) => {
      if (typeof listener !== 'function') throw new TypeError(`on.${eventMethodName(event)} needs a function`);
      let active = true;
      const unsubscribe = transport.subscribe(event, (payload) => {
        if (active) listener(payload);
      });
      return () => {
        if (!active) return;
        active = false;
        unsubscribe();
      };
    };
  }

  for (const methods of Object.values(domains)) Object.freeze(methods);
  return Object.freeze({ ...domains, on: Object.freeze(on) }) as unknown as TingxieWireBridge;
}
