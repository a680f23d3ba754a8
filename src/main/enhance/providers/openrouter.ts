import { OPENAI_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * OpenRouter (openrouter.ai/api/v1).
 * - Reasoning is the unified `reasoning` object; a model whose reasoning is mandatory refuses
 *   `reasoning: {enabled: false}` (and effort "none") with "Reasoning is mandatory for this endpoint and cannot be
 *   disabled.", so thinking off sends no `reasoning` at all (the model's default applies):
 *   https://openrouter.ai/docs/use-cases/reasoning-tokens, https://openrouter.ai/docs/client-sdks/typescript/models/modelreasoning,
 *   github.com/elie222/rakazo/issues/114, github.com/musistudio/claude-code-router/issues/1238
 * - Cached tokens: usage.prompt_tokens_details.cached_tokens; the caching rule is the routed provider's:
 *   https://openrouter.ai/docs/prompt-caching
 * - Context windows are per model in OpenRouter's model list, not a fixed table.
 */

/** OpenRouter. */
export const openRouterProfile: ProviderProfile = {
  kind: 'openrouter',
  label: 'OpenRouter',
  docs: ['https://openrouter.ai/docs/use-cases/reasoning-tokens', 'https://openrouter.ai/docs/prompt-caching'],
  defaultBaseURL: 'https://openrouter.ai/api/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'reasoning'],
  models: ['openai/gpt-4o-mini', 'google/gemini-2.5-flash', 'deepseek/deepseek-v4-flash', 'qwen/qwen3-235b-a22b-2507'],
  usage: OPENAI_USAGE,
  rules: (_model, thinking) => plainRules(thinking ? { reasoning: { enabled: true } } : {}),
  cache: () => cacheRule('upstream', 0, 1, "the routed provider's caching rule"),
  contextWindow: () => undefined,
};
