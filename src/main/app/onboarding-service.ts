/**
 * The onboarding window's calls in the running app: open/close, the cloud speech check, the microphone test
 * (mic-test.ts over the capture window), the permission checks and panes (onboarding-permissions.ts), and the
 * hotkey test (the hook's hold-to-talk key reported while the window watches). The key watch ends when the
 * window closes, so a crashed or closed guide can never leave the hotkeys muted.
 */
import type { BrowserWindow } from 'electron';
import type { MicTestResult } from '../../shared/ipc/onboarding-contract.ts';
import { REMOTE_SPEECH_SECRET, verifyRemoteSpeech } from '../asr/verify-remote-speech.ts';
import type { Broadcast } from '../ipc/register.ts';
import type { OnboardingService } from '../ipc/services.ts';
import { displayServer } from '../platform/paste-plan.ts';
import type { ConfigStore } from '../settings/config-store.ts';
import type { SecretStore } from '../settings/secrets.ts';
import type { DictationApp } from './dictation-app.ts';
import { openPermissionPane, readPermissions } from './onboarding-permissions.ts';

/** What {@link createOnboardingService} needs. */
export interface OnboardingServiceDeps {
  readonly config: ConfigStore;
  readonly secrets: Pick<SecretStore, 'get'>;
  readonly dictation: DictationApp | null;
  readonly windows: { show(kind: 'onboarding'): void; get(kind: 'onboarding'): BrowserWindow | undefined };
  readonly broadcast: () => Broadcast | null;
}

const NO_DICTATION: MicTestResult = { ok: false, code: 'unavailable', message: 'dictation did not start' };

/** The onboarding service of the app. */
export function createOnboardingService(deps: OnboardingServiceDeps): OnboardingService {
  const { dictation } = deps;
  const stopWatching = (): void => dictation?.hotkeys.watchKeys(null);
  return {
    open: () => deps.windows.show('onboarding'),
    close: () => {
      stopWatching();
      deps.windows.get('onboarding')?.close();
    },
    verifySpeech: () => verifyRemoteSpeech(deps.config.get(), deps.secrets.get(REMOTE_SPEECH_SECRET)),
    micTest: () => dictation?.micTest.run() ?? Promise.resolve(NO_DICTATION),
    permissions: () =>
      Promise.resolve(
        readPermissions({
          platform: process.platform,
          session: displayServer(process.env),
          capture: () => dictation?.captureStatus() ?? null,
          hookRunning: () => dictation?.hotkeys.status().hook === 'running',
        }),
      ),
    openPermission: (id) => openPermissionPane(process.platform, id),
    watchKeys: (on) => {
      if (dictation === null) return;
      if (!on) {
        stopWatching();
        return;
      }
      dictation.hotkeys.watchKeys((kind, key) => deps.broadcast()?.('onboarding:key', { kind, key }));
      deps.windows.get('onboarding')?.once('closed', stopWatching);
    },
  };
}
