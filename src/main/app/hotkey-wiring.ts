/** The hotkeys of the running app, driving the dictation controller; their problems go to the windows and the tray. */
import type { Config } from '../../shared/config/config-schema.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import type { DictationController } from '../dictation/controller.ts';
import type { Logger } from '../platform/logger.ts';
import { displayServer } from '../platform/paste-plan.ts';
import type { Notify } from './app-notices.ts';
import { createHotkeys, type AppHotkeys } from './hotkeys.ts';
import type { LastDictationActs } from './hotkey-last-dictation.ts';
import type { SetTrayProblem } from './tray-problems.ts';

/** What {@link createDictationHotkeys} needs. */
export interface DictationHotkeysDeps {
  readonly config: () => Config;
  readonly controller: Pick<DictationController, 'state' | 'press' | 'release' | 'cancel' | 'restart' | 'stepMode'>;
  /** Remembers the focused app just before a dictation starts (the paste goes back to it). */
  readonly rememberTarget: () => void;
  /** The "Enhance Selected Text" flow (its shortcut is recording.enhance_selection_shortcut). */
  readonly enhanceSelection: () => void;
  /** Paste / copy / reopen the last dictation (last-dictation.ts). */
  readonly lastDictation: LastDictationActs;
  readonly notify: Notify;
  readonly setProblem: SetTrayProblem;
  /** A notice in the UI language (for the tray). */
  readonly words: (notice: Notice) => string;
  readonly log: Logger;
}

/** Creates the hotkeys over the controller (nothing is registered until `apply`). */
export function createDictationHotkeys(deps: DictationHotkeysDeps): AppHotkeys {
  const c = deps.controller;
  return createHotkeys({
    config: deps.config,
    platform: process.platform,
    session: displayServer(process.env),
    target: {
      recording: () => c.state.state === 'recording',
      idle: () => c.state.state === 'idle',
      press: (t) => c.press(t),
      release: () => c.release(),
      cancel: () => c.cancel(),
      restart: () => c.restart(),
      stepMode: (d) => c.stepMode(d),
    },
    beforeStart: deps.rememberTarget,
    enhanceSelection: deps.enhanceSelection,
    lastDictation: deps.lastDictation,
    notify: (level, notices) => {
      for (const n of notices) deps.notify(level, n);
      deps.setProblem('hotkeys', notices.map(deps.words).join(' '));
    },
    log: (level, m, f) => deps.log.log(level, m, f),
  });
}
