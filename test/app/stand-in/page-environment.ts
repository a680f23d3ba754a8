/**
 * What runs in each page before any of its scripts: the environment a sandboxed Electron preload sees
 * (`require('electron')` with `contextBridge` and `ipcRenderer`, nothing else), then the app's real,
 * built preload script unchanged. `ipcRenderer.invoke` goes to the stand-in's ipcMain over a page
 * binding; `webContents.send` comes back through `__standinDeliver`.
 *
 * Known difference from Electron (named, not hidden): there is no isolated world here, so the preload
 * runs in the page's own world; the binding is removed from `window` before the preload runs.
 */
import { decodeWire, encodeWire } from './wire-codec.ts';

/** The name of the Playwright binding that carries invoke calls to main. */
export const INVOKE_BINDING = '__standinInvoke';
/** The page function main calls to deliver `webContents.send` events. */
export const DELIVER_FUNCTION = '__standinDeliver';

/** The init script for a window whose preload source is `preloadSource`. */
export function pageEnvironmentScript(preloadSource: string): string {
  return `(() => {
  const encodeWire = ${encodeWire.toString()};
  const decodeWire = ${decodeWire.toString()};
  const invoke = window[${JSON.stringify(INVOKE_BINDING)}];
  delete window[${JSON.stringify(INVOKE_BINDING)}];
  const listeners = new Map();
  Object.defineProperty(window, ${JSON.stringify(DELIVER_FUNCTION)}, {
    value: (channel, wire) => {
      const args = decodeWire(wire);
      for (const l of [...(listeners.get(channel) || [])]) l({ sender: null }, ...args);
    },
  });
  const unimplemented = (name) => new Proxy({}, { get: (_o, p) => { throw new Error('electron stand-in (preload): ' + name + '.' + String(p) + ' is not implemented'); } });
  const guard = (name, obj) => new Proxy(obj, { get: (o, p) => { if (p in o || typeof p === 'symbol' || p === 'then') return o[p]; throw new Error('electron stand-in (preload): ' + name + '.' + String(p) + ' is not implemented'); } });
  const ipcRenderer = guard('ipcRenderer', {
    async invoke(channel, ...args) {
      const reply = await invoke(channel, encodeWire(args));
      if (reply.error !== undefined) throw new Error("Error invoking remote method '" + channel + "': " + reply.error);
      return decodeWire(reply.value);
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel).add(listener);
      return ipcRenderer;
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  });
  const contextBridge = guard('contextBridge', {
    exposeInMainWorld(name, api) {
      // Electron copies the object into the main world; frozen here so the page cannot alter it either.
      Object.defineProperty(window, name, { value: Object.freeze(api), enumerable: true });
    },
  });
  const electron = guard('electron', { contextBridge, ipcRenderer, webFrame: unimplemented('webFrame') });
  const require = (id) => {
    if (id === 'electron') return electron;
    throw new Error('electron stand-in (preload): require(' + JSON.stringify(id) + ') is not available in a sandboxed preload');
  };
  const module = { exports: {} };
  (function (require, module, exports) {
${preloadSource}
  })(require, module, module.exports);
})();`;
}
