import { OPENAI_USAGE, bareModel, cacheRule, plainRules, type ModelRules, type ProviderProfile } from './profile.ts';

/*
 * Google Gemini, OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai/).
 * - Unknown fields are a 400 whose body is a JSON array: `Invalid JSON payload received. Unknown name
 *   "chat_template_kwargs": Cannot find field.`: github.com/liliMozi/openhanako/issues/394
 * - reasoning_effort maps to the thinking budget; "none" turns thinking off where the model allows it (2.5 Flash
 *   and Flash-Lite); 2.5 Pro and Gemini 3 Pro cannot turn it off (`low` is the floor); Gemini 3 Flash goes down
 *   to `minimal`: https://ai.google.dev/gemini-api/docs/openai, https://ai.google.dev/gemini-api/docs/thinking
 * - Implicit caching, minimum 1024 tokens (Flash) or 4096 (Pro), reported as prompt_tokens_details.cached_tokens:
 *   https://ai.google.dev/gemini-api/docs/caching
 * - Context: 1,048,576 tokens for 2.5 and 3: https://ai.google.dev/gemini-api/docs/models
 */

function rules(model: string, thinking: boolean): ModelRules {
  const m = bareModel(model);
  if (!/^gemini-(2\.5|[3-9])/.test(m)) return plainRules(); // 2.0 and older do not think
  const pro = m.includes('-pro');
  const off = pro ? 'low' : /^gemini-2\.5/.test(m) ? 'none' : 'minimal';
  const on = /^gemini-2\.5/.test(m) ? 'medium' : 'high';
  return plainRules({ reasoning_effort: thinking ? on : off });
}

/** Gemini. */
export const geminiProfile: ProviderProfile = {
  kind: 'gemini',
  label: 'Google Gemini',
  docs: ['https://ai.google.dev/gemini-api/docs/openai', 'https://ai.google.dev/gemini-api/docs/thinking', 'https://ai.google.dev/gemini-api/docs/caching'],
  defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'reasoning_effort'],
  models: ['gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.5-pro', 'gemini-3-flash-preview'],
  usage: OPENAI_USAGE,
  rules,
  cache: (model) =>
    bareModel(model).includes('-pro')
      ? cacheRule('auto', 4096, 1, 'implicit caching from 4096 tokens (Pro models)')
      : cacheRule('auto', 1024, 1, 'implicit caching from 1024 tokens (Flash models)'),
  contextWindow: (model) => (/^gemini-(2\.5|[3-9])/.test(bareModel(model)) ? 1_048_576 : undefined),
};
