/**
 * Onboarding-window channels (zod-free, for the preload): spread into channels.ts, so the feature adds its
 * channels in one place. The window's own list of what it may call and hear is here too, for per-window
 * IPC scopes.
 */

/** Invoke channels of the onboarding feature and their arity (see channels.ts). */
export const onboardingChannelArity = {
  'onboarding:open': 0,
  'onboarding:close': 0,
  'onboarding:verify-speech': 0,
  'onboarding:mic-test': 0,
  'onboarding:permissions': 0,
  'onboarding:open-permission': 1,
  'onboarding:watch-keys': 1,
} as const;

/** Events of the onboarding feature: the microphone test's level and the hotkey test's key readout. */
export const onboardingEventChannels = ['onboarding:mic-level', 'onboarding:key'] as const;

/**
 * Every channel the onboarding window uses: config (UI language, engine, mirror, remote endpoint, microphone,
 * hotkey, AI), the API keys (write-only, with their Remove), the model manager (speech and LLM models), the
 * providers (presets, Verify, model list), its own calls,
 * and the dictation events of the try-out.
 */
export const onboardingWindowChannels = {
  invoke: [
    'config:get',
    'config:set',
    'secrets:status',
    'secrets:set',
    'secrets:delete',
    'app:info',
    'models:list',
    'models:download',
    'models:cancel',
    'models:delete',
    'providers:presets',
    // The AI step's "a service you already use" is Settings › AI's provider list, with its Verify and model list.
    'providers:verify',
    'providers:models',
    'dictation:hotkeys',
    'onboarding:close',
    'onboarding:verify-speech',
    'onboarding:mic-test',
    'onboarding:permissions',
    'onboarding:open-permission',
    'onboarding:watch-keys',
  ],
  events: ['config:changed', 'models:progress', 'dictation:event', 'app:notice', ...onboardingEventChannels],
} as const;
