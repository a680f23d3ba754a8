/**
 * The preload: the only code that touches ipcRenderer. It exposes one frozen object, `window.tingxie`,
 * with one method per capability; never ipcRenderer itself, never the IPC event object.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { createBridge } from './create-bridge.ts';
import type { BridgeTransport } from './create-bridge.ts';

const transport: BridgeTransport = {
  invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
  subscribe: (event, listener) => {
    // Only the payload is passed on: the event object carries `sender` (ipcRenderer) and must not leak.
    const handler = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(event, handler);
    return () => {
      ipcRenderer.removeListener(event, handler);
    };
  },
};

contextBridge.exposeInMainWorld('tingxie', createBridge(transport));
