/*
 * The names API keys are stored under (src/main/settings/secrets.ts) and the words shown when a stored key
 * was entered for another server (src/main/settings/key-origin.ts). Kept here so the services that read
 * keys (asr, enhance) need not import settings, their peer (docs/dev/ARCHITECTURE.md, "Dependency direction").
 */

/** Secret-store name of an LLM provider's API key. */
export function providerSecretName(providerId: string): string {
  return `provider:${providerId}`;
}

/** Secret-store name of the remote transcription endpoint's API key. */
export const ASR_REMOTE_SECRET = 'asr:remote';

/** A stored key whose service now points to another origin: it is not sent until the user enters it again. */
export interface KeyMismatch {
  /** The origin the key was entered for. */
  readonly savedFor: string;
  /** The origin the service points to now. */
  readonly now: string;
}

/** The sentence a dictation shows instead of sending a key to a server it was not entered for. */
export function keyMismatchText(what: string, m: KeyMismatch): string {
  return `the API key for ${what} was entered for ${m.savedFor}, but it now points to ${m.now}; the key is not sent to a new server: enter it again in Settings`;
}
