/**
 * Browser-test stand-in for src/preload/index.ts: the SAME `createBridge` the preload uses, over a
 * transport that reaches the test process through Playwright bindings instead of ipcRenderer.
 * Bundled to an IIFE by browser-bridge-bundle.ts and installed with `page.addInitScript`, so it runs
 * before any page script, like a preload.
 */
import { createBridge, type BridgeTransport } from '../../src/preload/create-bridge.ts';
import type { EventChannel } from '../../src/shared/ipc/channels.ts';

interface HarnessWindow {
  /** Playwright binding (exposeBinding): runs the real dispatcher in the test process. */
  __tingxie_invoke?: (channel: string, payload: unknown) => Promise<unknown>;
}

const w = window as unknown as HarnessWindow;
const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();

const transport: BridgeTransport = {
  invoke: (channel, payload) => {
    const invoke = w.__tingxie_invoke;
    if (typeof invoke !== 'function') return Promise.reject(new Error('test harness binding __tingxie_invoke is missing'));
    return invoke(channel, payload);
  },
  subscribe: (event, listener) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
};

// The test process pushes main → renderer events through this (page.evaluate), as webContents.send would.
Object.defineProperty(window, '__tingxie_emit', {
  value: (event: EventChannel, payload: unknown): number => {
    const set = listeners.get(event);
    for (const listener of set ?? []) listener(payload);
    return set?.size ?? 0;
  },
});

// contextBridge.exposeInMainWorld makes a read-only, non-writable global; mirror that.
Object.defineProperty(window, 'tingxie', { value: createBridge(transport), enumerable: true });
