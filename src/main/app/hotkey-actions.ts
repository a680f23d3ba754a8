/** What each hotkey action does to the dictation: the router decides the action, this runs it. */
import type { HotkeyAction, RecordingKeyRole } from '../dictation/hotkey-router.ts';

/** What the hotkeys drive (the dictation controller, reduced). */
export interface HotkeyTarget {
  readonly recording: () => boolean;
  readonly idle: () => boolean;
  press(trigger: 'hold' | 'toggle'): void;
  release(): void;
  cancel(): void;
  restart(): void;
  stepMode(delta: 1 | -1): void;
}

/** The action of each recording key's role (when its global shortcut, not the hook, acts). */
export const ROLE_ACTION: Readonly<Record<RecordingKeyRole, HotkeyAction>> = {
  cancel: { type: 'cancel' },
  restart: { type: 'restart' },
  'prev-mode': { type: 'mode', delta: -1 },
  'next-mode': { type: 'mode', delta: 1 },
};

/** Runs hotkey actions on `target`; `beforeStart` runs just before a dictation starts (remembers the focused app). */
export function hotkeyActionRunner(target: HotkeyTarget, beforeStart: () => void): (a: HotkeyAction) => void {
  return (a) => {
    switch (a.type) {
      case 'hold-down':
        beforeStart();
        target.press('hold');
        return;
      case 'hold-up':
        target.release();
        return;
      case 'toggle':
        if (target.idle()) beforeStart();
        target.press('toggle');
        return;
      case 'cancel':
        target.cancel();
        return;
      case 'restart':
        target.restart();
        return;
      case 'mode':
        target.stepMode(a.delta);
        return;
      default: {
        const never: never = a;
        throw new Error(`unknown hotkey action ${JSON.stringify(never)}`);
      }
    }
  };
}
