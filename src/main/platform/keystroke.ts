/**
 * Sends the paste/copy keystroke to the focused window, per platform, with fallbacks:
 * - Linux X11: `xdotool key --clearmodifiers` (clears a still-held dictation modifier first), through a
 *   helper started at key-down (warm-xdotool.ts);
 * - Linux Wayland: `wtype`, then `ydotool`, then xdotool (reaches XWayland windows only);
 * - Windows: user32 SendInput called directly (koffi, win32-input.ts), then uiohook-napi's `keyTap`,
 *   then PowerShell `SendKeys`;
 * - macOS: uiohook-napi's `keyTap` (a CGEvent posted in-process) when the hook is loaded, else
 *   `osascript` (System Events).
 * Each strategy throws a readable Error when it cannot send; the next one is tried.
 */
import type { DisplayServer, PasteKeys } from './paste-plan.ts';
import { describeFailure, runCommand } from './run-command.ts';
import { WarmXdotool } from './warm-xdotool.ts';
import { loadUser32, sendChord, type User32 } from './win32-input.ts';

/** Sends a keystroke; rejects with a readable reason when no strategy worked. */
export interface KeystrokePort {
  send(keys: PasteKeys): Promise<void>;
  /** Gets the next `send` ready ahead of time (called at key-down); optional, never throws. */
  prepare?(): void;
}

/** uiohook-napi's keyTap (key code, modifier codes). */
export type KeyTap = (key: number, modifiers: number[]) => void;

// uiohook-napi key codes (its UiohookKey table): V, C, Enter, Ctrl, Shift, Meta.
const HOOK = { v: 47, c: 46, Return: 28, ctrl: 29, shift: 42, meta: 3675 } as const;
/** Linux input-event codes (ydotool): KEY_V 47, KEY_C 46, KEY_ENTER 28. */
const EVDEV = { v: 47, c: 46, Return: 28 } as const;

/** xdotool/wtype spelling of a keystroke. */
function parts(keys: PasteKeys): { readonly mods: readonly ('ctrl' | 'shift' | 'cmd')[]; readonly key: 'v' | 'c' | 'Return' } {
  const all = keys.split('+');
  return { mods: all.slice(0, -1) as ('ctrl' | 'shift' | 'cmd')[], key: all.at(-1) as 'v' | 'c' | 'Return' };
}

/** The prepared xdotool helpers, by display (warm-xdotool.ts). */
const warm = new Map<string, WarmXdotool>();
function warmFor(env?: NodeJS.ProcessEnv): WarmXdotool {
  const display = (env ?? process.env).DISPLAY ?? '';
  let w = warm.get(display);
  if (w === undefined) {
    w = new WarmXdotool(env ? { env } : {});
    warm.set(display, w);
  }
  return w;
}

function xdotool(keys: PasteKeys, env?: NodeJS.ProcessEnv): Promise<void> {
  return warmFor(env).key(keys);
}

/**
 * Gets the next keystroke ready ahead of time where that saves the user time: on X11 an xdotool
 * helper is started (at key-down) so the paste does not wait for it to start. Never throws.
 */
export function prepareKeystrokes(opts: { readonly platform: NodeJS.Platform; readonly display: DisplayServer; readonly env?: NodeJS.ProcessEnv }): void {
  if (opts.platform === 'linux' && opts.display === 'x11') warmFor(opts.env).prepare();
}

/** Ends the waiting helpers (quit). */
export function disposeKeystrokes(): void {
  for (const w of warm.values()) w.dispose();
  warm.clear();
}

async function wtype(keys: PasteKeys): Promise<void> {
  const { mods, key } = parts(keys);
  // wtype -k names a key by its xkb keysym (Return); a bare argument is typed as text.
  const args = [...mods.flatMap((m) => ['-M', m === 'cmd' ? 'logo' : m]), ...(key === 'Return' ? ['-k', 'Return'] : [key]), ...[...mods].reverse().flatMap((m) => ['-m', m === 'cmd' ? 'logo' : m])];
  const r = await runCommand('wtype', args, { timeoutMs: 3000 });
  if (r.code !== 0) throw new Error(describeFailure('wtype', r));
}

async function ydotool(keys: PasteKeys): Promise<void> {
  // ydotool takes Linux input-event codes: KEY_LEFTCTRL 29, KEY_LEFTSHIFT 42, KEY_V 47, KEY_C 46.
  const { mods, key } = parts(keys);
  const codes = [...mods.map((m) => (m === 'shift' ? 42 : 29)), EVDEV[key]];
  const args = ['key', ...codes.map((c) => `${c}:1`), ...[...codes].reverse().map((c) => `${c}:0`)];
  const r = await runCommand('ydotool', args, { timeoutMs: 3000 });
  if (r.code !== 0) throw new Error(describeFailure('ydotool', r));
}

async function osascript(keys: PasteKeys): Promise<void> {
  const { mods, key } = parts(keys);
  // Return is key code 36 (System Events' `key code`); its modifiers are the chord's own.
  const using = mods.map((m) => (m === 'shift' ? 'shift down' : m === 'cmd' ? 'command down' : 'control down'));
  const script = key === 'Return'
    ? `tell application "System Events" to key code 36${using.length > 0 ? ` using {${using.join(', ')}}` : ''}`
    : `tell application "System Events" to keystroke "${key}" using command down`;
  const r = await runCommand('osascript', ['-e', script], { timeoutMs: 5000 });
  if (r.code !== 0) throw new Error(`${describeFailure('osascript', r)} (Tingxie needs the Accessibility permission to paste)`);
}

async function sendKeys(keys: PasteKeys): Promise<void> {
  const { mods, key } = parts(keys);
  // SendKeys spells Enter {ENTER}; ^ is Ctrl, + is Shift (https://learn.microsoft.com/dotnet/api/system.windows.forms.sendkeys).
  const chord = `${mods.includes('ctrl') ? '^' : ''}${mods.includes('shift') ? '+' : ''}${key === 'Return' ? '{ENTER}' : key}`;
  const script = `Add-Type -AssemblyName System.Windows.Forms; [System.Windows.Forms.SendKeys]::SendWait('${chord}')`;
  const r = await runCommand('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script], { timeoutMs: 8000 });
  if (r.code !== 0) throw new Error(describeFailure('powershell', r));
}

function hookTap(tap: KeyTap, keys: PasteKeys): Promise<void> {
  const { mods, key } = parts(keys);
  tap(HOOK[key], mods.map((m) => (m === 'cmd' ? HOOK.meta : m === 'shift' ? HOOK.shift : HOOK.ctrl)));
  return Promise.resolve();
}

/** The strategies for a platform, in the order they are tried. */
export function keystrokeStrategies(opts: {
  readonly platform: NodeJS.Platform;
  readonly display: DisplayServer;
  readonly keyTap?: KeyTap | null;
  readonly env?: NodeJS.ProcessEnv;
  /** Windows: the user32 binding (default: koffi, loaded on first use). */
  readonly user32?: () => User32;
}): readonly { readonly name: string; readonly send: (keys: PasteKeys) => Promise<void> }[] {
  const tap = opts.keyTap;
  const hook = tap ? [{ name: 'uiohook', send: (k: PasteKeys) => hookTap(tap, k) }] : [];
  switch (opts.platform) {
    case 'darwin':
      return [...hook, { name: 'osascript', send: osascript }];
    case 'win32': {
      const user32 = opts.user32 ?? loadUser32;
      const sendInput = (k: PasteKeys): Promise<void> => {
        try {
          sendChord(user32(), k);
          return Promise.resolve();
        } catch (err) {
          return Promise.reject(err instanceof Error ? err : new Error(String(err)));
        }
      };
      return [{ name: 'sendinput', send: sendInput }, ...hook, { name: 'sendkeys', send: sendKeys }];
    }
    default:
      if (opts.display === 'wayland') return [{ name: 'wtype', send: wtype }, { name: 'ydotool', send: ydotool }, { name: 'xdotool', send: (k) => xdotool(k, opts.env) }];
      // On X11 xdotool is preferred: --clearmodifiers lifts a still-held dictation key (e.g. Alt) first.
      return [{ name: 'xdotool', send: (k) => xdotool(k, opts.env) }, ...hook];
  }
}

/** A KeystrokePort trying each strategy in turn; the error lists why each one failed. */
export function platformKeystrokes(opts: Parameters<typeof keystrokeStrategies>[0]): KeystrokePort {
  const strategies = keystrokeStrategies(opts);
  return {
    async send(keys) {
      const errors: string[] = [];
      for (const s of strategies) {
        try {
          await s.send(keys);
          return;
        } catch (err) {
          errors.push(`${s.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      throw new Error(errors.length > 0 ? errors.join('; ') : `no way to send keystrokes on ${opts.platform}`);
    },
  };
}
