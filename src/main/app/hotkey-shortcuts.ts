/**
 * The two global shortcuts the hotkeys register through Electron's globalShortcut: the toggle shortcut
 * (toggle mode, no usable hold key, or Wayland) and the enhance-selection shortcut, registered so the key
 * is consumed (on Wayland through the desktop's portal). Each keeps what it registered, to unregister it.
 */
import type { HotkeyStatusWire } from '../../shared/ipc/dictation-types.ts';
import type { HotkeyRole } from '../../shared/notices/notice.ts';
import type { ShortcutRegistry } from '../dictation/recording-keys.ts';

/** Why the toggle shortcut was refused: another app owns it, or Electron cannot parse it. */
export type ToggleCause = 'taken' | 'invalid';

/** The registered toggle shortcut. */
export interface ToggleShortcut {
  /** Unregisters the previous one and registers `accelerator` ('' = none); returns its status (null when none). */
  register(accelerator: string, press: () => void): HotkeyStatusWire['toggle'];
  /** Why the last registration failed (null: it did not fail, or there was none). */
  cause(): ToggleCause | null;
  dispose(): void;
}

/** A key problem, as bindingsFromConfig reports them. */
export interface KeyProblem {
  readonly key: string;
  readonly role: HotkeyRole;
  readonly error: string;
}

/** The registered enhance-selection shortcut. */
export interface SelectionShortcut {
  /** Unregisters the previous one and registers `accelerator` ('' = none). */
  register(accelerator: string): void;
  /** Why the last registration failed (null when it did not). */
  problem(): KeyProblem | null;
  dispose(): void;
}

const TAKEN = 'already used by another app or by the system';

/** The toggle shortcut over `registry`. */
export function toggleShortcut(registry: ShortcutRegistry): ToggleShortcut {
  let registered: string | null = null;
  let cause: ToggleCause | null = null;
  const unregister = (): void => {
    if (registered !== null) registry.unregister(registered);
    registered = null;
  };
  return {
    register(acc, press) {
      unregister();
      cause = null;
      if (acc === '') return null;
      let ok = false;
      let error: string | null = null;
      try {
        ok = registry.register(acc, press);
        if (!ok) {
          error = TAKEN;
          cause = 'taken';
        }
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        cause = 'invalid';
      }
      if (ok) registered = acc;
      return { accelerator: acc, registered: ok, error };
    },
    cause: () => cause,
    dispose: unregister,
  };
}

/** The enhance-selection shortcut (or another one-action shortcut, `role`) over `registry`; without `act` nothing is registered. */
export function selectionShortcut(registry: ShortcutRegistry, act: (() => void) | undefined, role: HotkeyRole = 'enhance-selection shortcut'): SelectionShortcut {
  let registered: string | null = null;
  let problem: KeyProblem | null = null;
  const unregister = (): void => {
    if (registered !== null) registry.unregister(registered);
    registered = null;
  };
  return {
    register(acc) {
      unregister();
      problem = null;
      if (acc === '' || act === undefined) return;
      try {
        if (registry.register(acc, () => act())) registered = acc;
        else problem = { key: acc, role, error: TAKEN };
      } catch (err) {
        problem = { key: acc, role, error: err instanceof Error ? err.message : String(err) };
      }
    },
    problem: () => problem,
    dispose: unregister,
  };
}
