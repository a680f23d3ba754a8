/** All IPC handlers, one file per domain, assembled over the injected services. */
import type { IpcHandlers } from '../dispatcher.ts';
import type { Services } from '../services.ts';
import { appHandlers } from './app.ts';
import { configHandlers } from './config.ts';
import { dictationHandlers } from './dictation.ts';
import { historyHandlers } from './history.ts';
import { learningHandlers } from './learning.ts';
import { onboardingHandlers } from './onboarding.ts';
import { recordingsHandlers } from './recordings.ts';
import { appRulesHandlers } from './app-rules.ts';
import { secretsHandlers } from './secrets.ts';
import { settingsHandlers } from './settings.ts';
import { textRulesHandlers } from './text-rules.ts';

/** One handler per contract channel (the type makes a missing one a compile error). */
export function createHandlers(services: Services): IpcHandlers {
  return {
    ...configHandlers(services.config),
    ...secretsHandlers(services.secrets),
    ...appHandlers(services.app),
    ...historyHandlers(services.history),
    ...dictationHandlers(services.dictation),
    ...settingsHandlers(services.settings),
    ...onboardingHandlers(services.onboarding),
    ...learningHandlers(services.learning),
    ...recordingsHandlers(services.recordings),
    ...appRulesHandlers(services.appRules),
    ...textRulesHandlers(services.textRules),
  };
}
