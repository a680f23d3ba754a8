/**
 * App lifecycle glue: one running instance per user profile, a menubar-only presence on macOS, and
 * a quit path that runs the shutdown steps once. Tingxie is a tray app, so closing every window
 * does not quit it.
 */
import { app } from 'electron';

/**
 * Takes Electron's single-instance lock. Returns false (and quits) when another instance already
 * runs; that instance receives `onSecondInstance` instead (it opens Settings, so launching the app
 * again visibly does something).
 */
export function claimSingleInstance(onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => onSecondInstance());
  return true;
}

/** Menubar app on macOS: no Dock icon (packaged builds also set LSUIElement). */
export function hideDockIcon(): void {
  app.dock?.hide();
}

/** Keeps the app alive when the last window closes; the tray's Quit is the way out. */
export function stayAliveWithoutWindows(): void {
  app.on('window-all-closed', () => {
    /* deliberately empty: a tray app outlives its windows */
  });
}

/**
 * Runs `shutdown` exactly once before the app quits (Quit menu, Cmd+Q, SIGTERM, OS logout), then
 * lets the quit continue. A shutdown that throws is reported but never blocks quitting.
 */
export function onQuit(shutdown: () => void | Promise<void>, report: (err: unknown) => void): void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    Promise.resolve()
      .then(shutdown)
      .catch(report)
      .finally(() => {
        state = 'stopped';
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}
