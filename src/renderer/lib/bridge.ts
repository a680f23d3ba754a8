/**
 * The only renderer module that touches `window.tingxie` (the preload's bridge). Everything else
 * imports `bridge` (or `getBridge()`) from here: typed from the IPC contract, rejecting with
 * `BridgeCallError` (code, message, issues) when main refuses a call.
 */
import { invokeChannels, splitChannel } from '../../shared/ipc/channels.ts';
import type { TingxieBridge, TingxieWireBridge } from '../../shared/ipc/bridge-types.ts';
import { unwrapBridge } from '../../shared/ipc/unwrap-bridge.ts';

export { BridgeCallError, isBridgeCallError } from '../../shared/ipc/envelope.ts';
export type { TingxieBridge, BridgeError, BridgeErrorCode, BridgeIssue } from '../../shared/ipc/bridge-types.ts';
export type * from '../../shared/ipc/wire-types.ts';

declare global {
  interface Window {
    /** Set by src/preload/index.ts through contextBridge; absent when a page is opened without it. */
    readonly tingxie?: TingxieWireBridge;
  }
}

let cached: TingxieBridge | undefined;

/** Whether the preload bridge is present (false when a page is opened in a plain browser). */
export function hasBridge(): boolean {
  return typeof window !== 'undefined' && window.tingxie !== undefined;
}

/** The typed bridge; throws a clear error when the page runs without Tingxie's preload. */
export function getBridge(): TingxieBridge {
  if (cached) return cached;
  const wire = typeof window === 'undefined' ? undefined : window.tingxie;
  if (!wire) {
    throw new Error(
      'window.tingxie is missing: this page must be opened in a Tingxie window (its preload exposes the bridge), ' +
        'or a test must install a bridge built with createBridge() before the UI starts.',
    );
  }
  cached = unwrapBridge(wire);
  return cached;
}

function lazyBridge(): TingxieBridge {
  // Resolved on first use, not at import: a module importing `bridge` must not crash a page that
  // never calls it (and tests can install window.tingxie after importing).
  const target: Record<string, unknown> = {};
  const domains = new Set([...invokeChannels.map((c) => splitChannel(c).domain), 'on']);
  for (const domain of domains) {
    Object.defineProperty(target, domain, {
      enumerable: true,
      get: () => (getBridge() as unknown as Record<string, unknown>)[domain],
    });
  }
  return Object.freeze(target) as unknown as TingxieBridge;
}

/** The typed bridge, e.g. `await bridge.config.set({ keyPath, value })`, `bridge.on.configChanged(cb)`. */
export const bridge: TingxieBridge = lazyBridge();
