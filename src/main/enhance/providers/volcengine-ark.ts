import { OPENAI_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * Volcengine Ark (ark.cn-beijing.volces.com/api/v3) and BytePlus ModelArk.
 * - Deep-thinking models (doubao-seed-1.6 and later, deepseek-v3.1/3.2) take `thinking: {type: "disabled" |
 *   "enabled"}`: github.com/anomalyco/models.dev (providers/volcengine/provider.toml),
 *   github.com/QuantumNous/new-api/pull/7203
 * - An endpoint id (`ep-…`) hides which model it serves, so nothing is sent for it; add
 *   `"thinking": {"type": "disabled"}` to extra_body when the endpoint runs a thinking model.
 * - Chat requests are cached only through the separate Context API (`context_id`), so plain requests never
 *   report cached tokens: github.com/nicepkg/aide/issues/80
 */

const THINKS = /^(doubao-seed|deepseek-v3[-.][12])/;

/** Volcengine Ark. */
export const volcengineArkProfile: ProviderProfile = {
  kind: 'volcengine-ark',
  label: 'Volcengine Ark (Doubao)',
  docs: ['https://github.com/anomalyco/models.dev/blob/dev/providers/volcengine/provider.toml', 'https://github.com/QuantumNous/new-api/pull/7203'],
  defaultBaseURL: 'https://ark.cn-beijing.volces.com/api/v3',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'thinking'],
  models: ['doubao-seed-1-6-flash-250828', 'doubao-seed-1-6-250615', 'deepseek-v3-1-terminus'],
  usage: OPENAI_USAGE,
  rules: (model, thinking) => (THINKS.test(model.toLowerCase()) ? plainRules({ thinking: { type: thinking ? 'enabled' : 'disabled' } }) : plainRules()),
  cache: () => cacheRule('none', 0, 1, 'plain chat requests are not cached; caching needs the Context API'),
  contextWindow: () => undefined,
};
