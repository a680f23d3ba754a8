/**
 * Wires the IPC layer for the composition root: dispatcher over the contract and the real handlers,
 * ipcMain registration, the event broadcaster, and config changes forwarded as `config:changed`.
 */
import { ipcContract } from '../../shared/ipc/contract.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import { createIpcDispatcher } from './dispatcher.ts';
import type { IpcDispatcher, IpcLog } from './dispatcher.ts';
import { createHandlers } from './handlers/index.ts';
import { toConfigSnapshot } from './handlers/config.ts';
import { createBroadcaster, registerIpc } from './register.ts';
import type { Broadcast, IpcMainLike } from './register.ts';
import type { Services } from './services.ts';
import type { HistoryChangedEvent } from '../../shared/ipc/wire-types.ts';
import type { TrustedSenders } from './trusted-senders.ts';

/** What {@link setupIpc} needs. */
export interface IpcSetupOptions {
  readonly services: Services & { readonly config: Services['config'] & Pick<ConfigStore, 'onChange'> };
  readonly trusted: TrustedSenders;
  readonly log: IpcLog;
  /** Subscribes to history changes (the history store's onChange), forwarded as `history:changed`. */
  readonly historyChanges?: (listener: (e: HistoryChangedEvent) => void) => () => void;
}

/** The running IPC layer. */
export interface IpcRuntime {
  readonly dispatcher: IpcDispatcher;
  readonly broadcast: Broadcast;
  /** Removes the handlers and the config subscription (on quit, or in tests). */
  dispose(): void;
}

/** Registers every channel with `ipcMain` and starts forwarding config changes to the windows. */
export function setupIpc(ipcMain: IpcMainLike, options: IpcSetupOptions): IpcRuntime {
  const { services, trusted, log } = options;
  const dispatcher = createIpcDispatcher({
    contract: ipcContract,
    handlers: createHandlers(services),
    isTrustedSender: trusted.isTrustedSender,
    scopeOf: trusted.scopeOf,
    log,
  });
  const unregister = registerIpc(ipcMain, dispatcher);
  const broadcast = createBroadcaster(trusted, log);
  const unsubscribe = services.config.onChange(({ keyPath, config }) =>
    broadcast('config:changed', { keyPath, config: toConfigSnapshot(config) }),
  );
  const unsubscribeHistory = options.historyChanges?.((e) => broadcast('history:changed', e));
  return {
    dispatcher,
    broadcast,
    dispose: () => {
      unsubscribe();
      unsubscribeHistory?.();
      unregister();
    },
  };
}
