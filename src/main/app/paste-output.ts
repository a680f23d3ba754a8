/** The output port of the running app: the paste service over Electron's clipboard and the platform's focus and keystrokes. */
import type { Config } from '../../shared/config/config-schema.ts';
import { electronClipboard } from '../platform/clipboard-electron.ts';
import { platformFocus, type FocusPort } from '../platform/focus.ts';
import { platformKeystrokes, prepareKeystrokes, type KeyTap } from '../platform/keystroke.ts';
import type { Logger } from '../platform/logger.ts';
import { displayServer } from '../platform/paste-plan.ts';
import { PasteService } from '../platform/paste.ts';

/** What {@link createPasteOutput} needs. */
export interface PasteOutputDeps {
  readonly config: () => Config;
  readonly log: Logger;
  /** The key hook's synthesiser, once the hotkeys are up (null before, or without a hook). */
  readonly keyTap: () => KeyTap | null;
}

/** The focus port (shared with the input context) and the paste service over it. */
export function createPasteOutput(deps: PasteOutputDeps): { readonly focus: FocusPort; readonly paste: PasteService } {
  // One focus port for the paste and the input context: key-down's two lookups of the focused window share one run.
  const focus = platformFocus(process.platform, displayServer(process.env));
  const paste = new PasteService({
    platform: process.platform,
    clipboard: electronClipboard(),
    focus,
    keys: {
      // Resolved per keystroke: the hook's keyTap appears once the hotkeys are up.
      send: (k) => platformKeystrokes({ platform: process.platform, display: displayServer(process.env), keyTap: deps.keyTap() }).send(k),
      prepare: () => prepareKeystrokes({ platform: process.platform, display: displayServer(process.env) }),
    },
    restoreClipboard: () => deps.config().output.restore_clipboard,
    log: (level, m, f) => deps.log.log(level, m, f),
  });
  return { focus, paste };
}
