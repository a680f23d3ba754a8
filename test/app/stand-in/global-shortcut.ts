/**
 * globalShortcut with real X key grabs (x11-grab-keys.py over python3-xlib, XGrabKey as Electron uses
 * on X11): a registered shortcut pressed on the display — by xdotool in the tests — runs its callback,
 * and a combination another client holds is refused (`register` returns false). `register` is
 * synchronous in Electron, so the grab is confirmed synchronously here too (a short blocking wait).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ElectronStandInError, strict } from './strict.ts';

const SCRIPT = path.join(import.meta.dirname, 'x11-grab-keys.py');
const MODS: Readonly<Record<string, number>> = { shift: 1, control: 4, ctrl: 4, commandorcontrol: 4, cmdorctrl: 4, alt: 8, option: 8, altgr: 128, super: 64, meta: 64, cmd: 64, command: 64 };
const NAMED: Readonly<Record<string, string>> = {
  space: 'space', enter: 'Return', return: 'Return', esc: 'Escape', escape: 'Escape', tab: 'Tab', backspace: 'BackSpace', delete: 'Delete', insert: 'Insert',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right', home: 'Home', end: 'End', pageup: 'Prior', pagedown: 'Next', plus: 'plus',
};

/** Accelerator → X keysym name and modifier mask; throws like Electron for one it cannot parse. */
export function parseAccelerator(accelerator: string): { keysym: string; mods: number } {
  const parts = accelerator.split('+').map((p) => p.trim());
  let mods = 0;
  let keysym: string | null = null;
  for (const [i, part] of parts.entries()) {
    const lower = part.toLowerCase();
    const mod = MODS[lower];
    if (mod !== undefined && i < parts.length - 1) mods |= mod;
    else if (i === parts.length - 1 && keysym === null) keysym = NAMED[lower] ?? (/^f([1-9]|1\d|2[0-4])$/.test(lower) ? part.toUpperCase() : /^[a-z0-9]$/i.test(part) ? lower : null);
    else keysym = null;
  }
  if (keysym === null) throw new TypeError('Error processing argument at index 0, conversion failure from ' + accelerator);
  return { keysym, mods };
}

let grabber: ChildProcess | null = null;
const callbacks = new Map<string, () => void>();
const ids = new Map<string, string>();
let nextId = 1;

function grabberProcess(): ChildProcess {
  if (grabber !== null) return grabber;
  if (!process.env.DISPLAY) throw new ElectronStandInError('globalShortcut without an X display (DISPLAY is not set)');
  grabber = spawn('/usr/bin/python3', [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  grabber.unref();
  createInterface({ input: grabber.stdout! }).on('line', (line) => {
    const [word, id] = line.split(' ');
    if (word === 'press' && id !== undefined) callbacks.get(id)?.();
  });
  return grabber;
}

/** Asks the grabber synchronously whether the grab took (a throwaway X client checks the answer file). */
function grabSync(id: string, keysym: string, mods: number): string {
  // The grabber is long-lived and asynchronous; Electron's register() answers at once, so the first
  // answer is awaited by a blocking probe: a second grabber process tries the same grab and releases it.
  const probe = execFileSync('/usr/bin/python3', ['-c', `
import sys; sys.argv=['x']
from Xlib import X, XK, display, error
d=display.Display(); r=d.screen().root
k=d.keysym_to_keycode(XK.string_to_keysym(${JSON.stringify(keysym)}))
if k==0: print('bad'); raise SystemExit
c=error.CatchError(error.BadAccess); r.grab_key(k, ${mods}, True, X.GrabModeAsync, X.GrabModeAsync, onerror=c); d.sync()
print('taken' if c.get_error() else 'ok'); r.ungrab_key(k, ${mods}); d.sync()
`], { encoding: 'utf8' }).trim();
  if (probe === 'ok') grabberProcess().stdin!.write(`grab ${id} ${keysym} ${mods}\n`);
  return probe;
}

export const globalShortcut = strict('globalShortcut', {
  register(accelerator: string, callback: () => void): boolean {
    const { keysym, mods } = parseAccelerator(accelerator);
    if (ids.has(accelerator)) return false;
    const id = String(nextId++);
    const answer = grabSync(id, keysym, mods);
    if (answer !== 'ok') return false;
    ids.set(accelerator, id);
    callbacks.set(id, callback);
    return true;
  },
  unregister(accelerator: string): void {
    const id = ids.get(accelerator);
    if (id === undefined) return;
    ids.delete(accelerator);
    callbacks.delete(id);
    grabber?.stdin?.write(`ungrab ${id}\n`);
  },
  unregisterAll(): void {
    for (const a of [...ids.keys()]) globalShortcut.unregister(a);
  },
  isRegistered: (accelerator: string): boolean => ids.has(accelerator),
});

/** Accelerators registered now (tests). */
export function registeredShortcuts(): string[] {
  return [...ids.keys()];
}
