/**
 * The Electron side of the tray: one Tray whose icon, tooltip and menu follow the app state.
 * The menu's content comes from the pure buildTrayMenu (tray-menu.ts); this file only binds actions.
 */
import { join } from 'node:path';
import { Menu, Tray, nativeImage } from 'electron';
import type { MenuItemConstructorOptions } from 'electron';
import { DEFAULT_TRAY_LABELS, buildTrayMenu, statusLine, trayIconFile } from './tray-menu.ts';
import type { TrayAction, TrayLabels, TrayMenuItem, TrayState } from './tray-menu.ts';

/** The live tray, updated by the composition root when the state changes. */
export interface AppTray {
  setState(state: TrayState): void;
  destroy(): void;
}

/** Creates the tray icon with its menu; `actions` run when items are clicked. */
export function createAppTray(opts: {
  readonly assetsDir: string;
  readonly actions: Readonly<Record<TrayAction, () => void>>;
  readonly labels?: TrayLabels;
  readonly initial?: TrayState;
}): AppTray {
  const labels = opts.labels ?? DEFAULT_TRAY_LABELS;
  const iconFor = (state: TrayState): Electron.NativeImage => {
    const image = nativeImage.createFromPath(join(opts.assetsDir, 'tray', trayIconFile(state.status, process.platform)));
    if (process.platform === 'darwin') image.setTemplateImage(true);
    return image;
  };
  let state: TrayState = opts.initial ?? { status: 'idle' };
  const tray = new Tray(iconFor(state));

  const render = (): void => {
    tray.setImage(iconFor(state));
    tray.setToolTip(statusLine(state, labels));
    tray.setContextMenu(Menu.buildFromTemplate(buildTrayMenu(state, labels).map((item) => toElectron(item, opts.actions))));
  };
  render();

  return {
    setState(next) {
      state = next;
      render();
    },
    destroy() {
      tray.destroy();
    },
  };
}

function toElectron(item: TrayMenuItem, actions: Readonly<Record<TrayAction, () => void>>): MenuItemConstructorOptions {
  switch (item.type) {
    case 'status':
      return { label: item.label, enabled: false };
    case 'separator':
      return { type: 'separator' };
    case 'action':
      return {
        label: item.label,
        ...(item.accelerator === undefined ? {} : { accelerator: item.accelerator }),
        click: () => actions[item.action](),
      };
    default: {
      const never: never = item;
      throw new Error(`unknown tray item ${JSON.stringify(never)}`);
    }
  }
}
