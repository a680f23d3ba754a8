/** The tray of the running app: created with the dictation items when there is dictation, in the UI language, which it follows. */
import { app, shell } from 'electron';
import { join } from 'node:path';
import type { Logger } from '../platform/logger.ts';
import type { DictationApp } from './dictation-app.ts';
import type { TrayLabels } from './tray-menu.ts';
import { createAppTray, type AppTray } from './tray.ts';
import type { WindowRegistry } from './window-registry.ts';

/** What {@link createTrayOrSettings} needs. */
export interface AppTrayDeps {
  readonly logsDir: string;
  readonly dictation: DictationApp | null;
  readonly labels: TrayLabels;
  readonly windows: Pick<WindowRegistry, 'show'>;
  readonly log: Logger;
}

/** Creates the tray; without one (some Linux desktops) Settings opens instead and null is returned. */
export function createTrayOrSettings(deps: AppTrayDeps): AppTray | null {
  const { dictation, windows } = deps;
  try {
    const actions = {
      'open-settings': () => windows.show('settings'),
      'open-history': () => windows.show('history'),
      'open-logs': () => void shell.openPath(deps.logsDir),
      quit: () => app.quit(),
      'open-setup': () => windows.show('onboarding'),
    };
    return createAppTray({
      assetsDir: join(app.getAppPath(), 'assets'),
      handlers: dictation?.trayHandlers(actions) ?? { actions: { ...actions, 'enhance-selection': () => undefined, 'retry-last': () => undefined, 'paste-last': () => undefined, 'copy-last': () => undefined, 'reopen-last': () => undefined, 'start-dictation': () => undefined } },
      labels: deps.labels,
      initial: { status: 'idle', ...dictation?.trayState() },
    });
  } catch (err) {
    // Some Linux desktops have no tray; the app stays reachable by launching it again (→ Settings).
    deps.log.error('could not create the tray icon', { error: err });
    windows.show('settings');
    return null;
  }
}

/** Switches the tray's labels when the UI language setting changes; returns the unsubscribe function. */
export function followUiLanguage(onChange: (listener: (e: { readonly keyPath: string }) => void) => () => void, tray: () => AppTray | null, labels: () => TrayLabels): () => void {
  return onChange(({ keyPath }) => {
    if (keyPath === '' || keyPath === 'ui' || keyPath.startsWith('ui.')) tray()?.setLabels(labels());
  });
}
