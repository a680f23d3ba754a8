/**
 * globalShortcut with real X key grabs (x11-grab-keys.py over python3-xlib, XGrabKey as Electron uses
 * on X11): a registered shortcut pressed on the display — by xdotool in the tests — runs its callback,
 * and a combination another client holds is refused (`register` returns false). `register` and
 * `unregister` are synchronous in Electron (the grab is in place, or gone, when they return), so here
 * they wait for the grabber's answer too: requests go through a FIFO, answers are appended to a file the
 * stand-in reads until the answer is there (a short blocking wait, as Electron's XGrabKey + sync).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ElectronStandInError, strict } from './strict.ts';

const SCRIPT = path.join(import.meta.dirname, 'x11-grab-keys.py');
const MODS: Readonly<Record<string, number>> = { shift: 1, control: 4, ctrl: 4, commandorcontrol: 4, cmdorctrl: 4, alt: 8, option: 8, altgr: 128, super: 64, meta: 64, cmd: 64, command: 64 };
const NAMED: Readonly<Record<string, string>> = {
  space: 'space', enter: 'Return', return: 'Return', esc: 'Escape', escape: 'Escape', tab: 'Tab', backspace: 'BackSpace', delete: 'Delete', insert: 'Insert',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right', home: 'Home', end: 'End', pageup: 'Prior', pagedown: 'Next', plus: 'plus',
};
const ANSWER_TIMEOUT_MS = 5000;

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

interface Grabber {
  readonly child: ChildProcess;
  readonly requests: number;
  readonly replies: string;
  offset: number;
}

let grabber: Grabber | null = null;
const callbacks = new Map<string, () => void>();
const ids = new Map<string, string>();
let nextId = 1;
const pause = new Int32Array(new SharedArrayBuffer(4));

function grabberProcess(): Grabber {
  if (grabber !== null) return grabber;
  if (!process.env.DISPLAY) throw new ElectronStandInError('globalShortcut without an X display (DISPLAY is not set)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-grabs-'));
  const fifo = path.join(dir, 'requests');
  const replies = path.join(dir, 'replies');
  execFileSync('mkfifo', [fifo]);
  fs.writeFileSync(replies, '');
  // O_RDWR: opening a FIFO this way never blocks, and small writes to it complete at once.
  const requests = fs.openSync(fifo, fs.constants.O_RDWR);
  const child = spawn('/usr/bin/python3', [SCRIPT, fifo, replies], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.unref();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const [word, id] = line.split(' ');
    if (word === 'press' && id !== undefined) callbacks.get(id)?.();
  });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  grabber = { child, requests, replies, offset: 0 };
  return grabber;
}

/** Sends one request and waits (blocking, like Electron's synchronous calls) for the answer about `id`. */
function ask(line: string, id: string): string {
  const g = grabberProcess();
  fs.writeSync(g.requests, `${line}\n`);
  const end = Date.now() + ANSWER_TIMEOUT_MS;
  for (;;) {
    const text = fs.readFileSync(g.replies, 'utf8').slice(g.offset);
    const newline = text.indexOf('\n');
    if (newline >= 0) {
      g.offset += Buffer.byteLength(text.slice(0, newline + 1));
      const [word, gid] = text.slice(0, newline).split(' ');
      if (gid === id && word !== undefined) return word;
      continue; // an answer to an earlier request that timed out
    }
    if (g.child.exitCode !== null || Date.now() > end) throw new ElectronStandInError(`globalShortcut: the X key grabber did not answer "${line}"`);
    Atomics.wait(pause, 0, 0, 2);
  }
}

export const globalShortcut = strict('globalShortcut', {
  register(accelerator: string, callback: () => void): boolean {
    const { keysym, mods } = parseAccelerator(accelerator);
    if (ids.has(accelerator)) return false;
    const id = String(nextId++);
    if (ask(`grab ${id} ${keysym} ${mods}`, id) !== 'ok') return false;
    ids.set(accelerator, id);
    callbacks.set(id, callback);
    return true;
  },
  unregister(accelerator: string): void {
    const id = ids.get(accelerator);
    if (id === undefined) return;
    ids.delete(accelerator);
    callbacks.delete(id);
    ask(`ungrab ${id}`, id);
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
