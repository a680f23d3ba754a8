/**
 * Remembers the window that had focus at key-down and brings it back before pasting, per platform:
 * - Linux X11 (and XWayland windows): `xdotool getactivewindow` + `xprop WM_CLASS` (terminal detection);
 *   `xdotool windowactivate` (needs a window manager with _NET_ACTIVE_WINDOW), else `windowfocus`.
 * - macOS: `lsappinfo front` / `lsappinfo info -only bundleid` (no Automation permission needed), and
 *   `open -b <bundle id>` to re-activate the app.
 * - Windows: user32 GetForegroundWindow / SetForegroundWindow called directly (koffi, win32-input.ts),
 *   with the foreground-lock rules handled (AttachThreadInput when Windows refuses); in direct mode the
 *   focus never left the target, so there is nothing to do. Where koffi cannot load, PowerShell with an
 *   `Add-Type` class does the same calls (seconds instead of milliseconds).
 * - Wayland without XWayland: no way to ask; `current()` gives null and the OS keeps the focus.
 */
import type { DisplayServer, FocusTarget } from './paste-plan.ts';
import { parseWmClassAsWritten } from './paste-plan.ts';
import { describeFailure, runCommand } from './run-command.ts';
import { activateWindow, foregroundId, hwndOf, loadUser32, type User32 } from './win32-input.ts';

/** Finds and re-activates the focused window. */
export interface FocusPort {
  /** The focused window now, or null when the platform cannot say. Never throws. */
  current(): Promise<FocusTarget | null>;
  /**
   * Only the id of the focused window, when the platform has a cheaper way to get it than `current()`
   * (X11: no WM_CLASS lookup): the paste compares it with the remembered target. Never throws.
   */
  focusedId?(): Promise<string | null>;
  /** Brings `target` to the front; rejects with a readable reason when that failed. */
  activate(target: FocusTarget): Promise<void>;
}

const WIN32_API = `Add-Type -Namespace Tx -Name W -MemberDefinition '[DllImport("user32.dll")] public static extern System.IntPtr GetForegroundWindow(); [DllImport("user32.dll")] public static extern bool SetForegroundWindow(System.IntPtr h);'`;

/** X11 focus through xdotool/xprop (`env` selects the display in tests). */
export function x11Focus(env?: NodeJS.ProcessEnv): FocusPort {
  const o = env ? { env } : {};
  // Which query answered last: without a window manager `getactivewindow` fails (no
  // _NET_ACTIVE_WINDOW) after a round trip, and a paste should not pay that failure every time.
  let order: readonly ('getactivewindow' | 'getwindowfocus')[] = ['getactivewindow', 'getwindowfocus'];
  const focusedId = async (): Promise<string | null> => {
    for (const q of order) {
      const r = await runCommand('xdotool', [q], { timeoutMs: 1500, ...o });
      const id = r.code === 0 ? r.stdout.trim() : '';
      if (/^\d+$/.test(id)) {
        if (q !== order[0]) order = [...order].reverse();
        return id;
      }
    }
    return null;
  };
  const lookUp = async (): Promise<FocusTarget | null> => {
    const id = await focusedId();
    if (id === null) return null;
    const p = await runCommand('xprop', ['-id', id, 'WM_CLASS'], { timeoutMs: 1500, ...o });
    const asWritten = p.code === 0 ? parseWmClassAsWritten(p.stdout) : [];
    const wmClass = asWritten.map((c) => c.toLowerCase());
    return { id, wmClass, wmClassAsWritten: asWritten, ...(wmClass[1] !== undefined ? { app: wmClass[1] } : {}) };
  };
  // Key-down asks twice at once — the paste's target and the input context — and gets one lookup.
  let inFlight: Promise<FocusTarget | null> | null = null;
  return {
    focusedId,
    current() {
      if (inFlight !== null) return inFlight;
      const run = lookUp().finally(() => {
        if (inFlight === run) inFlight = null;
      });
      inFlight = run;
      return run;
    },
    async activate(target) {
      if (!/^\d+$/.test(target.id)) throw new Error(`not an X11 window id: ${target.id}`);
      const a = await runCommand('xdotool', ['windowactivate', '--sync', target.id], { timeoutMs: 2000, ...o });
      if (a.code === 0 && !/not support|fail/i.test(a.stderr)) return;
      const f = await runCommand('xdotool', ['windowfocus', '--sync', target.id], { timeoutMs: 2000, ...o });
      if (f.code !== 0) throw new Error(`could not focus window ${target.id}: ${describeFailure('xdotool', f)}`);
    },
  };
}

/** macOS focus through lsappinfo and open -b. */
export function macFocus(): FocusPort {
  return {
    async current() {
      const front = await runCommand('lsappinfo', ['front'], { timeoutMs: 1500 });
      const asn = front.stdout.trim();
      if (front.code !== 0 || asn === '') return null;
      const info = await runCommand('lsappinfo', ['info', '-only', 'bundleid', asn], { timeoutMs: 1500 });
      const id = /"CFBundleIdentifier"\s*=\s*"([^"]+)"/.exec(info.stdout)?.[1];
      return id === undefined ? null : { id, app: id };
    },
    async activate(target) {
      if (!/^[A-Za-z0-9.\-_]+$/.test(target.id)) throw new Error(`not a bundle id: ${target.id}`);
      const r = await runCommand('open', ['-b', target.id], { timeoutMs: 3000 });
      if (r.code !== 0) throw new Error(`could not re-activate ${target.id}: ${describeFailure('open', r)}`);
    },
  };
}

/** Windows focus through direct user32 calls; `user32` is the seam tests fill with a fake. */
export function win32Focus(user32: () => User32): FocusPort {
  return {
    current() {
      try {
        const id = foregroundId(user32());
        return Promise.resolve(id === null ? null : { id });
      } catch {
        return Promise.resolve(null);
      }
    },
    activate(target) {
      try {
        activateWindow(user32(), hwndOf(target.id));
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

/** Windows focus: user32 through koffi, or PowerShell when koffi cannot be loaded. */
export function windowsFocus(load: () => User32 = loadUser32): FocusPort {
  try {
    const u = load();
    return win32Focus(() => u);
  } catch {
    return windowsFocusPowerShell();
  }
}

/** Windows focus through PowerShell and user32 (the fallback: 1–3 s per call). */
export function windowsFocusPowerShell(): FocusPort {
  const ps = (script: string): ReturnType<typeof runCommand> => runCommand('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `${WIN32_API}; ${script}`], { timeoutMs: 8000 });
  return {
    async current() {
      const r = await ps('[Tx.W]::GetForegroundWindow().ToInt64()');
      const id = r.stdout.trim();
      return r.code === 0 && /^\d+$/.test(id) && id !== '0' ? { id } : null;
    },
    async activate(target) {
      if (!/^\d+$/.test(target.id)) throw new Error(`not a window handle: ${target.id}`);
      const r = await ps(`[Tx.W]::SetForegroundWindow([System.IntPtr]::new(${target.id}))`);
      if (r.code !== 0 || r.stdout.trim() !== 'True') throw new Error(`Windows refused to bring the window back (${r.stdout.trim() || describeFailure('powershell', r)})`);
    },
  };
}

/** A FocusPort that knows nothing (native Wayland): the OS keeps the focus where it is. */
export const noFocus: FocusPort = {
  current: () => Promise.resolve(null),
  activate: () => Promise.resolve(),
};

/** The focus strategy of this platform. */
export function platformFocus(platform: NodeJS.Platform, display: DisplayServer, env?: NodeJS.ProcessEnv): FocusPort {
  if (platform === 'darwin') return macFocus();
  if (platform === 'win32') return windowsFocus();
  // XWayland windows are reachable through DISPLAY even in a Wayland session.
  if (display === 'x11' || (env ?? process.env).DISPLAY) return x11Focus(env);
  return noFocus;
}
