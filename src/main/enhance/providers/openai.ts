import { OPENAI_USAGE, cacheRule, windowFrom, type CacheRule, type ModelRules, type ProviderProfile } from './profile.ts';

/*
 * OpenAI (api.openai.com), and the model rules Azure OpenAI shares.
 * - Token field: `max_completion_tokens`; `max_tokens` is deprecated and refused by reasoning models
 *   ("Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead"):
 *   https://platform.openai.com/docs/api-reference/chat/create, github.com/griptape-ai/ComfyUI-Griptape/issues/312
 * - Reasoning models (gpt-5*, o-series) refuse a custom temperature (only the default 1):
 *   github.com/altic-dev/FluidVoice/issues/55, github.com/agno-agi/agno/issues/9951, github.com/NVlabs/cvdp_benchmark/issues/29
 * - reasoning_effort: gpt-5.1+ default to and accept `none`; earlier models do not support `none`
 *   (gpt-5/-mini/-nano go down to `minimal`); o-series take low/medium/high; gpt-5-pro only `high`:
 *   https://learn.microsoft.com/en-us/javascript/api/@azure/ai-projects/reasoningeffort,
 *   github.com/anomalyco/opencode/issues/4451 (`minimal` refused by gpt-5.1)
 * - `*-chat` models take no reasoning_effort at all: github.com/Laisky/one-api/issues/120,
 *   github.com/egoist/chatwise-releases/issues/1257
 * - Prompt caching: automatic from 1024 tokens, hits in 128-token increments, reported as
 *   usage.prompt_tokens_details.cached_tokens: https://platform.openai.com/docs/guides/prompt-caching
 * - Context windows: https://platform.openai.com/docs/models
 */

const REASONING = /^(o\d|gpt-5)/;
const CHAT = /^(gpt-5(\.\d+)?-chat|chatgpt-)/;
const PRO = /^gpt-5(\.\d+)?-pro/;

/** The OpenAI model rules (also Azure OpenAI's, whose deployments run the same models). */
export function openAiModelRules(model: string, thinking: boolean): ModelRules {
  const m = model.toLowerCase();
  if (CHAT.test(m)) return { tokenField: 'max_completion_tokens', temperature: 'omit', thinking: {} };
  if (!REASONING.test(m)) return { tokenField: 'max_completion_tokens', temperature: 'free', thinking: {} };
  // A pro model only runs at `high`, its default: sending nothing is the only accepted value either way.
  if (PRO.test(m)) return { tokenField: 'max_completion_tokens', temperature: 'omit', thinking: {} };
  const off = /^o\d/.test(m) ? 'low' : /^gpt-5\.\d/.test(m) ? 'none' : 'minimal';
  return { tokenField: 'max_completion_tokens', temperature: 'omit', thinking: { reasoning_effort: thinking ? 'medium' : off } };
}

const WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^gpt-4\.1/, 1_047_576],
  [/^(gpt-5(\.\d+)?-chat|chatgpt-)/, 128_000],
  [/^gpt-5/, 400_000],
  [/^o\d/, 200_000],
  [/^gpt-4o/, 128_000],
];

/** OpenAI context windows by model id. */
export function openAiContextWindow(model: string): number | undefined {
  return windowFrom(WINDOWS, model);
}

/** OpenAI's cache rule: automatic from 1024 tokens, in 128-token steps. */
export const OPENAI_CACHE: CacheRule = cacheRule('auto', 1024, 128, 'automatic for prompts of 1024 tokens or more; hits counted in 128-token increments');

/** Fields OpenAI documents that Tingxie uses (no `max_tokens`: `max_completion_tokens` replaces it). */
export const OPENAI_FIELDS: readonly string[] = ['model', 'messages', 'stream', 'stream_options', 'max_completion_tokens', 'temperature', 'reasoning_effort'];

/** OpenAI. */
export const openAiProfile: ProviderProfile = {
  kind: 'openai',
  label: 'OpenAI',
  docs: ['https://platform.openai.com/docs/api-reference/chat/create', 'https://platform.openai.com/docs/guides/reasoning', 'https://platform.openai.com/docs/guides/prompt-caching'],
  defaultBaseURL: 'https://api.openai.com/v1',
  fields: OPENAI_FIELDS,
  models: ['gpt-5.1', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o-mini', 'o4-mini'],
  usage: OPENAI_USAGE,
  rules: openAiModelRules,
  cache: () => OPENAI_CACHE,
  contextWindow: openAiContextWindow,
};

/*
 * Azure OpenAI through the v1 API (https://<resource>.openai.azure.com/openai/v1), which the openai SDK
 * calls as is: https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle
 * The same models with the same rules: https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/reasoning
 * (max_completion_tokens, no temperature on reasoning models, reasoning_effort); an unknown field is a 400
 * "Unrecognized request argument supplied": github.com/TutteInstitute/toponymy/pull/148. Caching as
 * OpenAI's (1024 tokens, 128-token steps): https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/prompt-caching
 * The model field is a deployment name: rules follow it only when it names the model (e.g. "gpt-5-mini").
 */

/** Azure OpenAI. */
export const azureOpenAiProfile: ProviderProfile = {
  kind: 'azure-openai',
  label: 'Azure OpenAI',
  docs: ['https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/reasoning', 'https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/prompt-caching'],
  defaultBaseURL: 'https://YOUR-RESOURCE.openai.azure.com/openai/v1',
  fields: OPENAI_FIELDS,
  models: ['gpt-5-mini', 'gpt-5.1', 'gpt-4.1-mini', 'gpt-4o-mini'],
  usage: OPENAI_USAGE,
  rules: openAiModelRules,
  cache: () => OPENAI_CACHE,
  contextWindow: openAiContextWindow,
};
