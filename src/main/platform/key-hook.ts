/**
 * The global keyboard hook (uiohook-napi), loaded lazily and behind a small interface: Electron's
 * globalShortcut sees presses only, hold-to-talk needs key-up too. The hook needs X11 (or XWayland) on
 * Linux and the Accessibility permission on macOS; `start()` reports those failures as a cause code
 * (translated where it is shown) plus the technical reason, instead of throwing from deep inside the
 * native module. Nothing here imports electron, so the Xvfb tests drive the same code.
 */
import { createRequire } from 'node:module';
import type { HookFailureCause } from '../../shared/notices/notice.ts';
import type { RawKeyEvent } from '../ports/raw-key-event.ts';
import type { KeyTap } from './keystroke.ts';

/** Key events in, plus the hook's key synthesiser. */
export interface KeyHook {
  onKey(listener: (kind: 'down' | 'up', e: RawKeyEvent) => void): () => void;
  /** The hook's keyTap (for the paste keystroke on macOS/Windows). */
  readonly keyTap: KeyTap;
  stop(): void;
}

/** Outcome of starting the hook. */
export type KeyHookStart =
  | { readonly ok: true; readonly hook: KeyHook }
  /** `cause` says why (for the user's words), `reason` is the native module's own message, `error` a log line. */
  | { readonly ok: false; readonly cause: HookFailureCause; readonly reason: string | null; readonly error: string };

interface UiohookModule {
  readonly uIOhook: {
    on(event: 'keydown' | 'keyup', listener: (e: RawKeyEvent) => void): unknown;
    off(event: 'keydown' | 'keyup', listener: (e: RawKeyEvent) => void): unknown;
    start(): void;
    stop(): void;
    keyTap(key: number, modifiers?: number[]): void;
  };
}

/** Why the hook cannot run here, before trying (null when it may). */
export function hookBlocker(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): 'wayland' | 'no-display' | null {
  if (platform === 'linux' && !env.DISPLAY) return env.WAYLAND_DISPLAY ? 'wayland' : 'no-display';
  return null;
}

/** Loads uiohook-napi and starts it; never throws. */
export function startKeyHook(opts: { readonly platform?: NodeJS.Platform; readonly env?: Readonly<Record<string, string | undefined>> } = {}): KeyHookStart {
  const platform = opts.platform ?? process.platform;
  const blocker = hookBlocker(platform, opts.env ?? process.env);
  if (blocker !== null) return { ok: false, cause: blocker, reason: null, error: blocker === 'wayland' ? 'Wayland session without DISPLAY (no XWayland)' : 'no DISPLAY is set' };
  let mod: UiohookModule;
  try {
    // CommonJS native addon: require keeps it out of the ESM graph until the app asks for it.
    mod = createRequire(import.meta.url)('uiohook-napi') as UiohookModule;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, cause: 'load-failed', reason: why, error: `uiohook-napi could not be loaded: ${why}` };
  }
  const hook = mod.uIOhook;
  try {
    hook.start();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    // On macOS a hook that will not start almost always lacks the Accessibility permission.
    return { ok: false, cause: platform === 'darwin' ? 'accessibility' : 'start-failed', reason: why, error: `the global key hook could not start: ${why}` };
  }
  const listeners = new Set<(kind: 'down' | 'up', e: RawKeyEvent) => void>();
  const down = (e: RawKeyEvent): void => listeners.forEach((l) => l('down', e));
  const up = (e: RawKeyEvent): void => listeners.forEach((l) => l('up', e));
  hook.on('keydown', down);
  hook.on('keyup', up);
  return {
    ok: true,
    hook: {
      onKey(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      keyTap: (key, modifiers) => hook.keyTap(key, modifiers),
      stop() {
        hook.off('keydown', down);
        hook.off('keyup', up);
        listeners.clear();
        try {
          hook.stop();
        } catch {
          // Stopping a hook that already died is not worth reporting.
        }
      },
    },
  };
}
