/** The language of the main process's own words: the start-up dialogs (before the config is read) and the UI language setting. */
import { app } from 'electron';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import { messagesFor, type MainMessages } from './messages.ts';

/**
 * The start-up dialogs' strings: before the config is read only the OS language is known (the
 * config may be what failed), so these follow the system like `ui.language: system` does.
 */
export function startupMessages(): MainMessages['startup'] {
  // getLocale() is only reliable after 'ready'; the preferred system languages are known before it.
  const os = app.getPreferredSystemLanguages()[0] ?? app.getLocale();
  return messagesFor(os.toLowerCase().startsWith('zh') ? 'zh' : 'en').startup;
}

/** The UI language a `ui.language` setting means now ('system' follows the OS locale). */
export function resolveUiLanguage(setting: 'system' | UiLanguage): UiLanguage {
  if (setting !== 'system') return setting;
  return app.getLocale().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
