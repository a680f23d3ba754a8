/** All IPC handlers, one file per domain, assembled over the injected services. */
import type { IpcHandlers } from '../dispatcher.ts';
import type { Services } from '../services.ts';
import { appHandlers } from './app.ts';
import { configHandlers } from './config.ts';
import { dictationHandlers } from './dictation.ts';
import { historyHandlers } from './history.ts';
import { onboardingHandlers } from './onboarding.ts';
import { secretsHandlers } from './secrets.ts';
import { settingsHandlers } from './settings.ts';

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
  };
}
