/** Request schemas and response types of the onboarding window's channels, spread into contract.ts. */
import { z } from 'zod';

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});
const none = z.undefined({ error: 'this call takes no payload' });

/** What a real request to the remote transcription endpoint found (`onboarding:verify-speech`). */
export interface SpeechCheckResult {
  readonly ok: boolean;
  /** AsrError code when it failed ('auth', 'network', 'timeout', 'bad-request', …), null when it worked. */
  readonly code: string | null;
  /** The service's own words (secrets removed), for the details line. */
  readonly message: string;
  readonly host: string;
  readonly model: string;
  readonly elapsedMs: number;
}

/**
 * A 2-second microphone test (`onboarding:mic-test`): the recording itself, for the window to play back, or
 * why there is none — `busy` (a dictation is under way), `unavailable` (the microphone did not open; the
 * capture window's words follow), `silent` (nothing but digital silence came in).
 */
export type MicTestResult =
  | { readonly ok: true; readonly sampleRate: number; /** base64 of little-endian Float32 samples. */ readonly pcm: string; /** 0..1, the meter's scale. */ readonly level: number }
  | { readonly ok: false; readonly code: 'busy' | 'unavailable' | 'silent'; readonly message: string };

/** The permissions and OS facts the setup guide checks. */
export type PermissionId = 'microphone' | 'accessibility' | 'key-hook';

/** One check: `granted` (green), `denied`, `not-determined` (the OS has not asked yet), `unknown` (nothing to check yet). */
export interface PermissionCheck {
  readonly id: PermissionId;
  readonly state: 'granted' | 'denied' | 'not-determined' | 'unknown';
  /** Whether `onboarding:open-permission` has a system pane (or prompt) to open for it. */
  readonly canOpen: boolean;
}

/** What the permissions step shows (`onboarding:permissions`). */
export interface PermissionReport {
  readonly platform: string;
  /** Linux's display server: Wayland changes what the hotkeys can do (hotkeys.ts). */
  readonly session: 'x11' | 'wayland' | 'none' | null;
  readonly checks: readonly PermissionCheck[];
}

/** A key of the hotkey test, seen by the global key hook (`onboarding:key`). */
export interface OnboardingKeyEvent {
  readonly kind: 'down' | 'up';
  /** The config key name of the hold-to-talk key it matched (`alt_r`). */
  readonly key: string;
}

/** Channel map of the onboarding feature; contract.ts spreads it in. */
export const onboardingContract = {
  'onboarding:open': { request: none, response: marker<null>() },
  'onboarding:close': { request: none, response: marker<null>() },
  'onboarding:verify-speech': { request: none, response: marker<SpeechCheckResult>() },
  'onboarding:mic-test': { request: none, response: marker<MicTestResult>() },
  'onboarding:permissions': { request: none, response: marker<PermissionReport>() },
  'onboarding:open-permission': { request: z.strictObject({ id: z.enum(['microphone', 'accessibility', 'key-hook']) }), response: marker<boolean>() },
  /** While on, the hold-to-talk key is reported as `onboarding:key` instead of starting a dictation. */
  'onboarding:watch-keys': { request: z.strictObject({ on: z.boolean() }), response: marker<null>() },
} as const;

/** Payload types of the onboarding events; contract.ts spreads them in. */
export const onboardingEvents = {
  'onboarding:mic-level': marker<{ readonly level: number }>(),
  'onboarding:key': marker<OnboardingKeyEvent>(),
} as const;
