/**
 * The Electron side of the tray: one Tray whose icon, tooltip and menu follow the app state.
 * The menu's content comes from the pure buildTrayMenu (tray-menu.ts); this file only binds actions.
 */
import { join } from 'node:path';
import { Menu, Tray, nativeImage } from 'electron';
import type { MenuItemConstructorOptions } from 'electron';
import { DEFAULT_TRAY_LABELS, buildTrayMenu, trayIconFile, trayIconStatus, trayTooltip } from './tray-menu.ts';
import type { TrayAction, TrayLabels, TrayMenuItem, TrayState, TrayToggle } from './tray-menu.ts';

/** The live tray, updated by the composition root when the state changes. */
export interface AppTray {
  /** Replaces the state (fields left out keep their previous value). */
  update(patch: Partial<TrayState>): void;
  readonly state: TrayState;
  /** Switches the menu and tooltip strings (the UI language changed) and redraws. */
  setLabels(labels: TrayLabels): void;
  destroy(): void;
}

/** What tray items do. */
export interface TrayHandlers {
  readonly actions: Readonly<Record<TrayAction, () => void>>;
  readonly mode?: (id: string) => void;
  readonly toggle?: (toggle: TrayToggle, checked: boolean) => void;
}

/** Creates the tray icon with its menu; handlers run when items are clicked. */
export function createAppTray(opts: { readonly assetsDir: string; readonly handlers: TrayHandlers; readonly labels?: TrayLabels; readonly initial?: TrayState }): AppTray {
  let labels = opts.labels ?? DEFAULT_TRAY_LABELS;
  const iconFor = (s: TrayState): Electron.NativeImage => {
    const image = nativeImage.createFromPath(join(opts.assetsDir, 'tray', trayIconFile(trayIconStatus(s), process.platform)));
    if (process.platform === 'darwin') image.setTemplateImage(true);
    return image;
  };
  let state: TrayState = opts.initial ?? { status: 'idle' };
  const tray = new Tray(iconFor(state));

  const render = (): void => {
    tray.setImage(iconFor(state));
    tray.setToolTip(trayTooltip(state, labels));
    tray.setContextMenu(Menu.buildFromTemplate(buildTrayMenu(state, labels).map((item) => toElectron(item, opts.handlers))));
  };
  render();

  return {
    update(patch) {
      state = { ...state, ...patch };
      render();
    },
    get state() {
      return state;
    },
    setLabels(next) {
      labels = next;
      render();
    },
    destroy() {
      tray.destroy();
    },
  };
}

function toElectron(item: TrayMenuItem, h: TrayHandlers): MenuItemConstructorOptions {
  switch (item.type) {
    case 'status':
      return { label: item.label, enabled: false };
    case 'separator':
      return { type: 'separator' };
    case 'action':
      return {
        label: item.label,
        enabled: item.enabled ?? true,
        ...(item.accelerator === undefined ? {} : { accelerator: item.accelerator }),
        click: () => h.actions[item.action](),
      };
    case 'toggle':
      return { type: 'checkbox', label: item.label, checked: item.checked, click: (mi) => h.toggle?.(item.toggle, mi.checked) };
    case 'modes':
      return { label: item.label, enabled: item.enabled, submenu: item.items.map((m) => ({ type: 'radio' as const, label: m.label, checked: m.checked, click: () => h.mode?.(m.id) })) };
    default: {
      const never: never = item;
      throw new Error(`unknown tray item ${JSON.stringify(never)}`);
    }
  }
}
