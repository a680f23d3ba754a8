/** The open windows by kind (at most one of each), created through the secure window factory. */
import type { BrowserWindow } from 'electron';
import { createSecureWindow, type WindowFactoryDeps } from './window-factory.ts';
import type { WindowKind } from './window-policy.ts';

/** The app's windows. */
export interface WindowRegistry {
  /** The open window of `kind`, if any. */
  get(kind: WindowKind): BrowserWindow | undefined;
  /** Shows (creating if needed) the window of `kind`; before {@link WindowRegistry.ready} it does nothing. */
  show(kind: WindowKind): void;
  /** Creates the window of `kind` (hidden or shown as its policy says). */
  open(kind: WindowKind): BrowserWindow;
  /** The factory's dependencies are known (IPC is up): windows can be created from now on. */
  ready(deps: WindowFactoryDeps): void;
  /** The kinds open now. */
  kinds(): WindowKind[];
}

/** An empty registry; windows can be opened once `ready` is called. */
export function createWindowRegistry(): WindowRegistry {
  const windows = new Map<WindowKind, BrowserWindow>();
  let factoryDeps: WindowFactoryDeps | null = null;
  const open = (kind: WindowKind, deps: WindowFactoryDeps): BrowserWindow => {
    const win = createSecureWindow(kind, deps);
    windows.set(kind, win);
    win.on('closed', () => {
      if (windows.get(kind) === win) windows.delete(kind);
    });
    return win;
  };
  return {
    get: (kind) => windows.get(kind),
    show(kind) {
      const existing = windows.get(kind);
      if (existing !== undefined && !existing.isDestroyed()) {
        existing.show();
        existing.focus();
        return;
      }
      if (factoryDeps === null) return; // not ready yet: the tray is not up either
      open(kind, factoryDeps);
    },
    open(kind) {
      if (factoryDeps === null) throw new Error(`window ${kind} opened before the window factory is ready`);
      return open(kind, factoryDeps);
    },
    ready(deps) {
      factoryDeps = deps;
    },
    kinds: () => [...windows.keys()],
  };
}
