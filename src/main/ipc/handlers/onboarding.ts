/** `onboarding:*`: thin wrappers over {@link OnboardingService}. */
import type { IpcHandlers } from '../dispatcher.ts';
import type { OnboardingService } from '../services.ts';

type OnboardingChannels =
  | 'onboarding:open'
  | 'onboarding:close'
  | 'onboarding:verify-speech'
  | 'onboarding:mic-test'
  | 'onboarding:permissions'
  | 'onboarding:open-permission'
  | 'onboarding:watch-keys';

/** Handlers of the onboarding feature; `svc` is absent in set-ups without the onboarding window. */
export function onboardingHandlers(svc: OnboardingService | undefined): Pick<IpcHandlers, OnboardingChannels> {
  const get = (): OnboardingService => {
    if (!svc) throw new Error('onboarding is not available in this window set-up');
    return svc;
  };
  return {
    'onboarding:open': () => {
      get().open();
      return null;
    },
    'onboarding:close': () => {
      get().close();
      return null;
    },
    'onboarding:verify-speech': () => get().verifySpeech(),
    'onboarding:mic-test': () => get().micTest(),
    'onboarding:permissions': () => get().permissions(),
    'onboarding:open-permission': ({ id }) => get().openPermission(id),
    'onboarding:watch-keys': ({ on }) => {
      get().watchKeys(on);
      return null;
    },
  };
}
