/** `app:*` handlers: app facts, and the two OS actions behind an allow-list. */
import type { IpcHandlers } from '../dispatcher.ts';
import { IpcPayloadError } from '../errors.ts';
import { isAllowedExternalUrl } from '../external-urls.ts';
import type { AppService } from '../services.ts';

/** Handlers for app:info, app:open-external, app:open-logs and app:copy-text. */
export function appHandlers(app: AppService): Pick<IpcHandlers, 'app:info' | 'app:open-external' | 'app:open-logs' | 'app:copy-text'> {
  return {
    'app:info': () => ({ version: app.version, platform: app.platform, dataDir: app.dataDir, uiLanguage: app.uiLanguage() }),
    'app:open-external': async ({ url }) => {
      // Electron security checklist item 15: never hand an arbitrary URL to the OS.
      if (!isAllowedExternalUrl(url)) {
        throw new IpcPayloadError('only https links to allow-listed sites can be opened', [
          { path: 'url', message: 'not an https URL on the allow-list' },
        ]);
      }
      await app.openExternal(url);
      return null;
    },
    'app:open-logs': async () => {
      await app.openLogs();
      return null;
    },
    'app:copy-text': ({ text }) => {
      app.copyText(text);
      return null;
    },
  };
}
