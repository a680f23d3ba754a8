import { cacheRule, plainRules, windowFrom, type ModelRules, type ProviderProfile } from './profile.ts';

/*
 * Moonshot AI / Kimi (api.moonshot.cn, api.moonshot.ai).
 * - Kimi K2.5/K2.6 take `thinking: {type: "enabled" | "disabled"}` and a FIXED temperature: 1.0 thinking,
 *   0.6 non-thinking; any other value is a 400 ("invalid temperature: only 1 is allowed for this model"):
 *   https://platform.kimi.ai/docs/api/models-overview, github.com/Warma10032/VideoAdGuard/issues/34,
 *   github.com/NousResearch/hermes-agent/issues/12435
 * - kimi-k2-thinking / K3 always reason (no switch); their temperature is not sent.
 * - Usage is streamed inside choices[0].usage and cache hits are usage.cached_tokens (top level of usage):
 *   github.com/earendil-works/pi/issues/2017, github.com/earendil-works/pi/issues/8075,
 *   github.com/higress-group/higress/pull/1568
 * - Automatic context cache, prefixes matched in 256-token chunks: https://platform.kimi.ai/docs/api/models-overview
 */

const SWITCHABLE = /^kimi-k2\.[5-9]/;
const ALWAYS_THINKS = /^(kimi-k2-thinking|kimi-k3)/;

const WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^kimi-k2/, 262_144],
  [/^moonshot-v1-8k/, 8_192],
  [/^moonshot-v1-32k/, 32_768],
  [/^moonshot-v1-128k/, 131_072],
];

function rules(model: string, thinking: boolean): ModelRules {
  const m = model.toLowerCase();
  if (SWITCHABLE.test(m)) return { tokenField: 'max_tokens', temperature: thinking ? 1 : 0.6, thinking: { thinking: { type: thinking ? 'enabled' : 'disabled' } } };
  if (ALWAYS_THINKS.test(m)) return { tokenField: 'max_tokens', temperature: 'omit', thinking: {} };
  return plainRules();
}

/** Moonshot / Kimi. */
export const moonshotProfile: ProviderProfile = {
  kind: 'moonshot',
  label: 'Moonshot AI (Kimi)',
  docs: ['https://platform.kimi.ai/docs/api/models-overview'],
  defaultBaseURL: 'https://api.moonshot.cn/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'thinking'],
  models: ['kimi-k2.6', 'kimi-k2.5', 'kimi-k2-turbo-preview', 'moonshot-v1-32k'],
  usage: { where: 'choices[0].usage', cached: 'usage.cached_tokens' },
  rules,
  cache: () => cacheRule('auto', 256, 256, 'automatic; prefixes matched in 256-token chunks'),
  contextWindow: (model) => windowFrom(WINDOWS, model),
};
