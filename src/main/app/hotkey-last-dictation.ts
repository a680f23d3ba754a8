/**
 * The last-dictation shortcuts (recording.paste_last_shortcut, copy_last_shortcut, reopen_last_shortcut):
 * one global shortcut each, registered like the enhance-selection shortcut (hotkey-shortcuts.ts) so the
 * key is consumed. All are unbound by default: every candidate combination is some app's shortcut.
 */
import type { Config } from '../../shared/config/config-schema.ts';
import type { HotkeyRole } from '../../shared/notices/notice.ts';
import type { ShortcutRegistry } from '../dictation/recording-keys.ts';
import { selectionShortcut, type KeyProblem, type SelectionShortcut } from './hotkey-shortcuts.ts';

/** What the three shortcuts do (the tray's Paste / Copy / Reopen last items do the same). */
export interface LastDictationActs {
  readonly paste: () => void;
  readonly copy: () => void;
  readonly reopen: () => void;
}

/** The registered last-dictation shortcuts. */
export interface LastDictationShortcuts {
  /** Registers the configured accelerators again (unregistering the previous ones). */
  register(config: Config): void;
  /** The shortcuts that could not be registered. */
  problems(): readonly KeyProblem[];
  dispose(): void;
}

const KEYS = [
  ['paste', 'paste_last_shortcut', 'paste-last shortcut'],
  ['copy', 'copy_last_shortcut', 'copy-last shortcut'],
  ['reopen', 'reopen_last_shortcut', 'reopen-last shortcut'],
] as const satisfies readonly (readonly [keyof LastDictationActs, keyof Config['recording'], HotkeyRole])[];

/** The three shortcuts over `registry` (nothing is registered without `acts`). */
export function lastDictationShortcuts(registry: ShortcutRegistry, acts: LastDictationActs | undefined): LastDictationShortcuts {
  const each: readonly (readonly [keyof Config['recording'], SelectionShortcut])[] = KEYS.map(([act, key, role]) => [key, selectionShortcut(registry, acts?.[act], role)] as const);
  return {
    register(config) {
      for (const [key, s] of each) s.register(String(config.recording[key]).trim());
    },
    problems: () => each.flatMap(([, s]) => s.problem() ?? []),
    dispose() {
      for (const [, s] of each) s.dispose();
    },
  };
}
