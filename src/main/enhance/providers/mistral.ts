import { PLAIN_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * Mistral (api.mistral.ai/v1).
 * - Extra fields are a 422 `extra_forbidden`, `stream_options` included (so usage comes without it, in the last
 *   chunk): github.com/openai/openai-agents-python/issues/442, github.com/avante-corp/avante.nvim/issues/2347,
 *   github.com/mistralai/platform-docs-public/issues/7
 * - Adjustable reasoning on mistral-small-latest (Small 4, 2603) and mistral-medium-3-5: reasoning_effort `none`
 *   or `high`; magistral models always reason: https://docs.mistral.ai/capabilities/reasoning/adjustable,
 *   github.com/pydantic/pydantic-ai/issues/5285
 * - Caching: prompt_cache_key is documented, the usage field for cached tokens was not established:
 *   https://docs.mistral.ai/capabilities/prompt-caching
 */

const ADJUSTABLE = /^(mistral-small-(latest|2603)|mistral-medium-3[-.]5)/;

/** Mistral. */
export const mistralProfile: ProviderProfile = {
  kind: 'mistral',
  label: 'Mistral AI',
  docs: ['https://docs.mistral.ai/api/', 'https://docs.mistral.ai/capabilities/reasoning/adjustable'],
  defaultBaseURL: 'https://api.mistral.ai/v1',
  fields: ['model', 'messages', 'stream', 'max_tokens', 'temperature', 'reasoning_effort'],
  models: ['mistral-small-latest', 'mistral-medium-latest', 'mistral-large-latest', 'ministral-8b-latest'],
  usage: PLAIN_USAGE,
  rules: (model, thinking) => (ADJUSTABLE.test(model.toLowerCase()) ? plainRules({ reasoning_effort: thinking ? 'high' : 'none' }) : plainRules()),
  cache: () => cacheRule('unknown', 0, 1, 'cached-token reporting not established'),
  contextWindow: () => undefined,
};
