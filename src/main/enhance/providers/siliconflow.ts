import { PLAIN_USAGE, bareModel, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * SiliconFlow (api.siliconflow.cn / api.siliconflow.com).
 * - Thinking is switched with `enable_thinking` (DeepSeek's `thinking.type` is not honoured there), and only on
 *   hybrid models; on any other model the field itself is a 400 (code 20015):
 *   https://docs.siliconflow.cn/docs/api/chat-completions-post, github.com/CherryHQ/cherry-studio/pull/14782,
 *   github.com/CherryHQ/cherry-studio/issues/6642
 * - Cached-token reporting and a cache rule: not found in the documentation.
 */

const HYBRID = /^(qwen3-\d+b(-a\d+b)?$|qwen3\.\d|deepseek-v3\.[12]|deepseek-v4|glm-(4\.[5-9]|[5-9])|hunyuan-a13b)/;

/** SiliconFlow. */
export const siliconFlowProfile: ProviderProfile = {
  kind: 'siliconflow',
  label: 'SiliconFlow',
  docs: ['https://docs.siliconflow.cn/docs/api/chat-completions-post'],
  defaultBaseURL: 'https://api.siliconflow.cn/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'enable_thinking'],
  models: ['Qwen/Qwen3-8B', 'deepseek-ai/DeepSeek-V4-Flash', 'zai-org/GLM-4.6', 'Qwen/Qwen2.5-7B-Instruct'],
  usage: PLAIN_USAGE,
  rules: (model, thinking) => (HYBRID.test(bareModel(model)) ? plainRules({ enable_thinking: thinking }) : plainRules()),
  cache: () => cacheRule('unknown', 0, 1, 'no cache rule found in the documentation'),
  contextWindow: () => undefined,
};
