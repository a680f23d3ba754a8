/**
 * "Enhance Selected Text": the tray item and its global shortcut
 * (`recording.enhance_selection_shortcut`, WenZi's clipboard-enhance key) run this one flow: remember
 * the app that has the selection, copy the selection, and send it through enhancement, preview and
 * output as a `clipboard` session (its input context is read as the session starts).
 */
import type { Notice, NoticeLevel } from '../../shared/notices/notice.ts';

/** What the flow uses: the paste service's two calls, the controller's entry, the notice sink. */
export interface EnhanceSelectionDeps {
  readonly rememberTarget: () => void;
  readonly copySelection: () => Promise<string | null>;
  readonly enhanceText: (text: string) => void;
  readonly notify: (level: NoticeLevel, notice: Notice) => void;
}

/** The flow as one callable (for the tray handler and the shortcut alike). */
export function enhanceSelectionFlow(deps: EnhanceSelectionDeps): () => Promise<void> {
  return async () => {
    deps.rememberTarget();
    try {
      const text = await deps.copySelection();
      if (text === null) deps.notify('info', { code: 'select-first' });
      else deps.enhanceText(text);
    } catch (err) {
      deps.notify('error', { code: 'copy-selection-failed', reason: String(err) });
    }
  };
}
