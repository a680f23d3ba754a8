import { cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * DeepSeek (api.deepseek.com).
 * - Models: deepseek-v4-flash and deepseek-v4-pro; deepseek-chat / deepseek-reasoner were retired on
 *   2026-07-24 ("The supported API model names are deepseek-v4-pro or deepseek-v4-flash, but you passed
 *   deepseek-chat."): github.com/raycast/extensions/issues/29730, github.com/mozilla-ai/any-llm/issues/1172
 * - Thinking is ON by default; `thinking: {type: "disabled" | "enabled"}` switches it (reasoning_effort
 *   high/max only tunes it when on); temperature is accepted and, in thinking mode, ignored rather than refused:
 *   https://api-docs.deepseek.com/guides/thinking_mode
 * - Cache: on disk, automatic; a request hits only a whole "cache prefix unit", persisted at request boundaries
 *   and at common prefixes detected across requests; no token minimum stated. Hits are reported as
 *   usage.prompt_cache_hit_tokens (misses: prompt_cache_miss_tokens): https://api-docs.deepseek.com/guides/kv_cache
 * - Context: 1M tokens for the V4 models (1,048,576 listed; 1,000,000 budgeted to stay inside it):
 *   huggingface.co/deepseek-ai/DeepSeek-V4-Flash ("a context length of one million tokens"),
 *   openrouter.ai/deepseek/deepseek-v4-flash
 */

/** DeepSeek. */
export const deepSeekProfile: ProviderProfile = {
  kind: 'deepseek',
  label: 'DeepSeek',
  docs: ['https://api-docs.deepseek.com/guides/thinking_mode', 'https://api-docs.deepseek.com/guides/kv_cache'],
  defaultBaseURL: 'https://api.deepseek.com',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'thinking', 'reasoning_effort'],
  models: ['deepseek-v4-flash', 'deepseek-v4-pro'],
  usage: { where: 'chunk.usage', cached: 'prompt_cache_hit_tokens' },
  rules: (_model, thinking) => plainRules({ thinking: { type: thinking ? 'enabled' : 'disabled' } }),
  cache: () => cacheRule('auto', 0, 1, 'prefix units persisted at request boundaries and at common prefixes of several requests; a hit must match a whole unit; no minimum'),
  contextWindow: (model) => (/^deepseek-v4/i.test(model) ? 1_000_000 : undefined),
};
