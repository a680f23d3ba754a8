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

/** Channel map of the onboarding feature; contract.ts spreads it in. */
export const onboardingContract = {
  'onboarding:open': { request: none, response: marker<null>() },
  'onboarding:close': { request: none, response: marker<null>() },
  'onboarding:verify-speech': { request: none, response: marker<SpeechCheckResult>() },
} as const;
