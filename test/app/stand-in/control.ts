/**
 * The harness's control channel into the app process (Node IPC, present only when the harness
 * started the app): tests read the state a user would see outside the windows (tray, which windows
 * are shown and where, dialogs, shortcuts) and act on it (click a tray item, answer a dialog). Pages
 * themselves are driven over Chromium's DevTools endpoint, with real key and mouse events.
 */
import { StandInBrowserWindow } from './browser-window.ts';
import { clipboardMarkers } from './clipboard.ts';
import { registeredShortcuts } from './global-shortcut.ts';
import { pendingDialogs, shownDialogs } from './misc.ts';
import { protocol } from './protocol.ts';
import { devtoolsEndpoint, record } from './runtime.ts';
import { clickMenuItem, describeMenu, trays } from './tray-menu.ts';
import { forked } from './utility-process.ts';

/** The state a test reads. */
function state(): unknown {
  const tray = trays.filter((t) => !t.destroyed).at(-1) ?? null;
  return {
    devtools: devtoolsEndpoint(),
    windows: StandInBrowserWindow.getAllWindows().map((w) => ({
      id: w.id,
      url: w.webContents.url,
      visible: w.isVisible(),
      focused: w.isFocused(),
      bounds: w.getBounds(),
      alwaysOnTop: w.alwaysOnTop,
      ignoreMouseEvents: w.ignoreMouseEvents,
      options: w.options,
    })),
    tray: tray === null ? null : { tooltip: tray.tooltip, image: tray.image.path, menu: describeMenu(tray.menu) },
    dialogs: { pending: [...pendingDialogs.values()].map((d) => ({ id: d.id, options: d.options })), shown: shownDialogs },
    shortcuts: registeredShortcuts(),
    clipboardMarkers,
    privilegedSchemes: protocol.privileged,
    children: forked.map((c) => ({ pid: c.pid, alive: c.exitCode === null && c.signalCode === null })),
    ...record,
  };
}

async function run(cmd: string, args: Record<string, unknown>): Promise<unknown> {
  switch (cmd) {
    case 'state':
      return state();
    case 'tray-click': {
      const tray = trays.filter((t) => !t.destroyed).at(-1);
      if (tray === undefined) throw new Error('there is no tray');
      clickMenuItem(tray.menu, args.path as string[]);
      return null;
    }
    case 'dialog-answer': {
      const d = pendingDialogs.get(Number(args.id));
      if (d === undefined) throw new Error(`no open dialog ${String(args.id)}`);
      d.answer(Number(args.response));
      return null;
    }
    default:
      throw new Error(`unknown control command ${cmd}`);
  }
}

/** Starts answering the harness (no-op when the app was not started by it). */
export function startControl(): void {
  if (process.send === undefined) return;
  process.on('message', (m: { id: number; cmd: string; args?: Record<string, unknown> }) => {
    if (typeof m !== 'object' || m === null || typeof m.cmd !== 'string') return;
    run(m.cmd, m.args ?? {}).then(
      (result) => process.send?.({ id: m.id, ok: true, result }),
      (err: unknown) => process.send?.({ id: m.id, ok: false, error: String(err) }),
    );
  });
  // The channel must not keep a quitting app alive.
  process.channel?.unref();
}
