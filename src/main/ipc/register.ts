/**
 * The only code that touches ipcMain: one `handle` per contract channel, each forwarding to the
 * dispatcher (which checks sender and payload before any handler runs). Events go out through
 * `createBroadcaster`, to trusted windows only.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { EventChannel } from '../../shared/ipc/channels.ts';
import type { EventPayload } from '../../shared/ipc/contract.ts';
import type { IpcDispatcher, IpcLog } from './dispatcher.ts';
import type { TrustableContents } from './trusted-senders.ts';

/** The part of ipcMain used here (so tests can pass a recorder instead of Electron's). */
export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

/**
 * Registers every channel of the dispatcher with ipcMain. Only the first argument after the event is
 * forwarded: extra arguments are ignored. Returns a function that removes the handlers again.
 */
export function registerIpc(ipcMain: IpcMainLike, dispatcher: IpcDispatcher): () => void {
  for (const channel of dispatcher.channels) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, payload: unknown) =>
      dispatcher.dispatch(channel, { id: event.sender.id, frameUrl: event.senderFrame?.url ?? '' }, payload),
    );
  }
  return () => {
    for (const channel of dispatcher.channels) ipcMain.removeHandler(channel);
  };
}

/** Sends a typed event to every window. */
export type Broadcast = <E extends EventChannel>(event: E, payload: EventPayload<E>) => void;

/** A broadcaster over the trusted webContents (destroyed ones are skipped; a failed send is logged). */
export function createBroadcaster(trusted: { contents(): readonly TrustableContents[] }, log: IpcLog): Broadcast {
  return (event, payload) => {
    for (const contents of trusted.contents()) {
      try {
        if (!contents.isDestroyed()) contents.send(event, payload);
      } catch (error) {
        log.warn('IPC event could not be sent', { event, senderId: contents.id, error: String(error) });
      }
    }
  };
}
