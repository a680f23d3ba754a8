import { OPENAI_USAGE, bareModel, cacheRule, windowFrom, type ModelRules, type ProviderProfile } from './profile.ts';

/*
 * Groq (api.groq.com/openai/v1).
 * - Unknown properties are refused with a 400 ("property 'chat_template_kwargs' is unsupported"):
 *   github.com/immersive-translate/immersive-translate/issues/3016, https://console.groq.com/docs/openai
 * - `max_completion_tokens` is the token field (`max_tokens` is its deprecated alias): https://console.groq.com/docs/api-reference
 * - Reasoning per model: gpt-oss takes reasoning_effort low/medium/high only (no `none`: `low` is the floor);
 *   qwen3 takes reasoning_effort `none` (off) / `default` (on) and reasoning_format; other models have no switch:
 *   https://console.groq.com/docs/reasoning, github.com/apache/maka/pull/978, github.com/vercel/ai/pull/17118
 * - Prompt caching is automatic on supported models, reported as usage.prompt_tokens_details.cached_tokens; no
 *   minimum stated: https://console.groq.com/docs/prompt-caching. Without stream_options the last chunk carries
 *   usage as x_groq.usage.
 * - Context: 131,072 tokens for the listed models: https://console.groq.com/docs/models
 */

function rules(model: string, thinking: boolean): ModelRules {
  const m = bareModel(model);
  const base = { tokenField: 'max_completion_tokens', temperature: 'free' } as const;
  if (m.startsWith('gpt-oss')) return { ...base, thinking: { reasoning_effort: thinking ? 'medium' : 'low' } };
  if (m.startsWith('qwen3')) return { ...base, thinking: thinking ? { reasoning_effort: 'default', reasoning_format: 'parsed' } : { reasoning_effort: 'none' } };
  return { ...base, thinking: {} };
}

const WINDOWS: readonly (readonly [RegExp, number])[] = [[/^(llama-3\.[13]|gpt-oss|qwen3)/, 131_072]];

/** Groq. */
export const groqProfile: ProviderProfile = {
  kind: 'groq',
  label: 'Groq',
  docs: ['https://console.groq.com/docs/openai', 'https://console.groq.com/docs/reasoning', 'https://console.groq.com/docs/prompt-caching'],
  defaultBaseURL: 'https://api.groq.com/openai/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_completion_tokens', 'temperature', 'reasoning_effort', 'reasoning_format'],
  models: ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant', 'openai/gpt-oss-120b', 'openai/gpt-oss-20b', 'qwen/qwen3-32b'],
  usage: OPENAI_USAGE,
  rules,
  cache: () => cacheRule('auto', 0, 1, 'automatic on supported models; no minimum stated'),
  contextWindow: (model) => windowFrom(WINDOWS, bareModel(model)),
};
