import type { ProviderProfile } from './profile.ts';

/**
 * The chat request body of one enhancement step, from the provider's profile. Key order is fixed (model,
 * messages, then the knobs) so the serialised bytes of consecutive requests share their prefix.
 */

/** Tingxie's temperature for cleaning text: low, so the model edits rather than rewrites. */
export const TINGXIE_TEMPERATURE = 0.2;

/** What a body is built from. */
export interface BodyInput {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  readonly maxTokens: number;
  readonly thinking: boolean;
  /** The user's `extra_body`: added last; a null value removes that field. */
  readonly extraBody?: Readonly<Record<string, unknown>> | undefined;
}

/** Builds the streaming request body the profile's provider accepts for the model. */
export function buildRequestBody(profile: ProviderProfile, input: BodyInput): Record<string, unknown> {
  const rules = profile.rules(input.model, input.thinking);
  const accepts = (field: string): boolean => profile.fields.includes(field);
  const body: Record<string, unknown> = { model: input.model, messages: input.messages, stream: true };
  // Without include_usage most servers send no usage in a stream; Mistral refuses the field and sends usage anyway.
  if (accepts('stream_options')) body.stream_options = { include_usage: true };
  body[rules.tokenField] = input.maxTokens;
  if (rules.temperature === 'free') body.temperature = TINGXIE_TEMPERATURE;
  else if (typeof rules.temperature === 'number') body.temperature = rules.temperature;
  for (const [k, v] of Object.entries(rules.thinking)) {
    // A rule naming a field its own profile does not list is a profile bug; the provider would refuse the request.
    if (accepts(k)) body[k] = v;
  }
  return applyExtraBody(body, input.extraBody);
}

/** Adds the user's extra fields last (they win); a field set to null is removed instead of sent as null. */
export function applyExtraBody(body: Record<string, unknown>, extra: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  if (extra === undefined) return body;
  for (const [k, v] of Object.entries(extra)) {
    if (v === null) delete body[k];
    else body[k] = v;
  }
  return body;
}
