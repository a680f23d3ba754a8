/**
 * Tray, Menu and nativeImage as state a test can read and click: the tray keeps its image path,
 * tooltip and context menu; `clickMenuItem` does what a click on a real menu does (a checkbox flips
 * before its click handler runs, a radio item becomes checked).
 */
import fs from 'node:fs';
import { strict } from './strict.ts';

/** A menu item as built from a template. */
export interface StandInMenuItem {
  label: string;
  type: string;
  enabled: boolean;
  checked: boolean;
  accelerator?: string;
  click?: (item: StandInMenuItem, win: unknown, event: unknown) => void;
  submenu?: StandInMenu;
}

/** A menu built with Menu.buildFromTemplate. */
export class StandInMenu {
  readonly items: StandInMenuItem[];
  constructor(items: StandInMenuItem[]) {
    this.items = items;
  }
  static buildFromTemplate(template: readonly Record<string, unknown>[]): StandInMenu {
    return strict(
      'Menu',
      new StandInMenu(
        template.map((t) => {
          const sub = t.submenu as readonly Record<string, unknown>[] | undefined;
          return {
            label: String(t.label ?? ''),
            type: String(t.type ?? (sub ? 'submenu' : 'normal')),
            enabled: t.enabled !== false,
            checked: t.checked === true,
            ...(t.accelerator === undefined ? {} : { accelerator: String(t.accelerator) }),
            ...(typeof t.click === 'function' ? { click: t.click as StandInMenuItem['click'] } : {}),
            ...(sub ? { submenu: StandInMenu.buildFromTemplate(sub) } : {}),
          };
        }),
      ),
    );
  }
}

/** A native image loaded from a file (only the path and emptiness are kept). */
class StandInImage {
  readonly path: string;
  template = false;
  constructor(file: string) {
    this.path = file;
  }
  isEmpty(): boolean {
    return this.path === '' || !fs.existsSync(this.path);
  }
  setTemplateImage(on: boolean): void {
    this.template = on;
  }
}

/** nativeImage.createFromPath. */
export const nativeImage = strict('nativeImage', {
  createFromPath: (file: string) => strict('NativeImage', new StandInImage(file)),
});

/** Every tray created, for the control channel. */
export const trays: StandInTray[] = [];

/** A tray icon: state only (image, tooltip, menu). */
export class StandInTray {
  image: StandInImage;
  tooltip = '';
  menu: StandInMenu | null = null;
  destroyed = false;
  constructor(image: StandInImage) {
    if (image.isEmpty()) throw new Error(`electron stand-in: tray image not found: ${image.path}`);
    this.image = image;
    trays.push(this);
  }
  setImage(image: StandInImage): void {
    if (image.isEmpty()) throw new Error(`electron stand-in: tray image not found: ${image.path}`);
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: StandInMenu | null): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** The Tray class as the app sees it. */
export const Tray = new Proxy(StandInTray, { construct: (target, args: [StandInImage]) => strict('Tray', new target(...args)) });

/** The Menu class as the app sees it. */
export const Menu = strict('Menu', { buildFromTemplate: StandInMenu.buildFromTemplate });

/** A plain view of a menu for tests. */
export function describeMenu(menu: StandInMenu | null): unknown[] {
  return (menu?.items ?? []).map((i) => ({
    label: i.label,
    type: i.type,
    enabled: i.enabled,
    checked: i.checked,
    ...(i.submenu ? { submenu: describeMenu(i.submenu) } : {}),
  }));
}

/** Clicks the item at `labels` (a path through submenus), as a user would. */
export function clickMenuItem(menu: StandInMenu | null, labels: readonly string[]): void {
  let items = menu?.items ?? [];
  let item: StandInMenuItem | undefined;
  for (const [i, label] of labels.entries()) {
    item = items.find((x) => x.label === label);
    if (item === undefined) throw new Error(`no menu item "${label}" (have: ${items.map((x) => x.label).join(' | ')})`);
    if (i < labels.length - 1) items = item.submenu?.items ?? [];
  }
  if (item === undefined) throw new Error('empty menu path');
  if (!item.enabled) throw new Error(`menu item "${item.label}" is disabled`);
  if (item.type === 'checkbox') item.checked = !item.checked;
  if (item.type === 'radio') {
    for (const x of items) if (x.type === 'radio') x.checked = false;
    item.checked = true;
  }
  item.click?.(item, undefined, {});
}
