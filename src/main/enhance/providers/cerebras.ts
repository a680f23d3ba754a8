import { OPENAI_USAGE, cacheRule, type ModelRules, type ProviderProfile } from './profile.ts';

/*
 * Cerebras (api.cerebras.ai/v1).
 * - Unknown properties are rejected, not ignored ("property 'chat_template_kwargs' is unsupported",
 *   wrong_api_format): github.com/OpenWhispr/openwhispr/issues/831, github.com/proxysoul/Empryo/pull/209
 * - `max_completion_tokens`: https://inference-docs.cerebras.ai/api-reference/chat-completions
 * - Reasoning: gpt-oss-120b takes reasoning_effort low/medium/high (`none`/`minimal` are refused, `low` is the
 *   floor); zai-glm-4.7 takes reasoning_effort `none` to turn it off (the older `disable_reasoning` is
 *   deprecated); reasoning_format parsed/raw/hidden/none: https://inference-docs.cerebras.ai/capabilities/reasoning
 * - Usage carries prompt_tokens_details.cached_tokens (API reference example); a cache rule was not found.
 */

function rules(model: string, thinking: boolean): ModelRules {
  const m = model.toLowerCase();
  const base = { tokenField: 'max_completion_tokens', temperature: 'free' } as const;
  if (m.startsWith('gpt-oss')) return { ...base, thinking: { reasoning_effort: thinking ? 'medium' : 'low' } };
  // GLM thinks by default: `none` turns it off; on, its default is kept.
  if (m.startsWith('zai-glm')) return { ...base, thinking: thinking ? {} : { reasoning_effort: 'none' } };
  return { ...base, thinking: {} };
}

/** Cerebras. */
export const cerebrasProfile: ProviderProfile = {
  kind: 'cerebras',
  label: 'Cerebras',
  docs: ['https://inference-docs.cerebras.ai/api-reference/chat-completions', 'https://inference-docs.cerebras.ai/capabilities/reasoning'],
  defaultBaseURL: 'https://api.cerebras.ai/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_completion_tokens', 'temperature', 'reasoning_effort', 'reasoning_format'],
  models: ['gpt-oss-120b', 'zai-glm-4.7', 'llama3.1-8b', 'qwen-3-235b-a22b-instruct-2507'],
  usage: OPENAI_USAGE,
  rules,
  cache: () => cacheRule('unknown', 0, 1, 'cached tokens are reported; no cache rule found in the documentation'),
  contextWindow: () => undefined,
};
