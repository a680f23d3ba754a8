/**
 * ipcMain: `handle`/`removeHandler` as Electron documents them (one handler per channel; a second
 * `handle` on the same channel throws). Pages reach it through ipcMainDispatch with an event whose
 * `sender` is their webContents and whose `senderFrame.url` is the URL the app loaded in that window.
 */
import { EventEmitter } from 'node:events';
import { strict } from './strict.ts';

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

const handlers = new Map<string, InvokeHandler>();

class StandInIpcMain extends EventEmitter {
  handle(channel: string, handler: InvokeHandler): void {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    handlers.set(channel, handler);
  }
  handleOnce(channel: string, handler: InvokeHandler): void {
    this.handle(channel, (event, ...args) => {
      handlers.delete(channel);
      return handler(event, ...args);
    });
  }
  removeHandler(channel: string): void {
    handlers.delete(channel);
  }
}

/** The ipcMain the app imports. */
export const ipcMain = strict('ipcMain', new StandInIpcMain());

/** Runs the handler for an invoke from a page; a channel with no handler fails as in Electron. */
export async function ipcMainDispatch(channel: string, event: { sender: unknown; senderFrame: { url: string } }, args: unknown[]): Promise<unknown> {
  const handler = handlers.get(channel);
  if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
  return handler({ ...event, processId: 0, frameId: 0 }, ...args);
}
