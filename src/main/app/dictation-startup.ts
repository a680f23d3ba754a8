/** Dictation at app start: built when it can be; when not, Settings and History still work and the user is told why. */
import { dialog } from 'electron';
import { createDictationApp, type DictationApp, type DictationAppDeps } from './dictation-app.ts';
import { messagesFor } from './messages.ts';

/** Builds the dictation part of the app, or says in a dialog why it cannot (null). */
export async function openDictation(deps: DictationAppDeps): Promise<DictationApp | null> {
  try {
    return await createDictationApp(deps);
  } catch (err) {
    // Settings and History still work; the user is told why dictation does not.
    deps.log.error('dictation could not start', { error: err });
    dialog.showErrorBox(messagesFor(deps.uiLanguage()).startup.dictationUnavailableTitle, err instanceof Error ? err.message : String(err));
    return null;
  }
}
