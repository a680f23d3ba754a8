import { OPENAI_USAGE, cacheRule, plainRules, windowFrom, type ProviderProfile } from './profile.ts';

/*
 * Zhipu GLM (open.bigmodel.cn) / Z.ai (api.z.ai).
 * - GLM-4.5 and later think by default; `thinking: {type: "disabled" | "enabled"}` switches it:
 *   https://docs.bigmodel.cn/cn/guide/capabilities/thinking-mode, https://docs.bigmodel.cn/cn/guide/capabilities/thinking
 * - The chat API documents no `stream_options`: usage arrives in the last chunk on its own, so it is not sent.
 * - Implicit cache, reported as usage.prompt_tokens_details.cached_tokens; no minimum stated:
 *   https://docs.z.ai/guides/capabilities/cache
 * - Context: GLM-4.6/4.7 200K (docs.aimlapi.com/api-references/text-models-llm/zhipu/glm-4.7: "200K context";
 *   GLM-4.6 model card: "up to 200K tokens"), GLM-4.5 128K. Other models: not established here.
 */

const THINKS = /^glm-(4\.[5-9]|[5-9])/;

const WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^glm-4\.[6-9]/, 200_000],
  [/^glm-4\.5/, 128_000],
];

/** Zhipu GLM. */
export const zhipuProfile: ProviderProfile = {
  kind: 'zhipu',
  label: 'Zhipu GLM (BigModel / Z.ai)',
  docs: ['https://docs.bigmodel.cn/cn/guide/capabilities/thinking-mode', 'https://docs.z.ai/guides/capabilities/cache'],
  defaultBaseURL: 'https://open.bigmodel.cn/api/paas/v4',
  fields: ['model', 'messages', 'stream', 'max_tokens', 'temperature', 'thinking'],
  models: ['glm-4.7', 'glm-4.6', 'glm-4.5-air', 'glm-4-flash'],
  usage: OPENAI_USAGE,
  rules: (model, thinking) => (THINKS.test(model.toLowerCase()) ? plainRules({ thinking: { type: thinking ? 'enabled' : 'disabled' } }) : plainRules()),
  cache: () => cacheRule('auto', 0, 1, 'implicit cache; no minimum stated'),
  contextWindow: (model) => windowFrom(WINDOWS, model),
};
