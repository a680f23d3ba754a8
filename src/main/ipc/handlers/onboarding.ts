/** `onboarding:*`: thin wrappers over {@link OnboardingService}. */
import type { IpcHandlers } from '../dispatcher.ts';
import type { OnboardingService } from '../services.ts';

/** Handlers of the onboarding feature; `svc` is absent in set-ups without the onboarding window. */
export function onboardingHandlers(svc: OnboardingService | undefined): Pick<IpcHandlers, 'onboarding:open' | 'onboarding:close' | 'onboarding:verify-speech'> {
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
  };
}
