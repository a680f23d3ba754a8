import { OPENAI_USAGE, bareModel, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * Alibaba Cloud Model Studio / DashScope, OpenAI-compatible mode (Qwen).
 * - Hybrid-thinking models take `enable_thinking` (qwen-plus, qwen-flash, qwen-turbo, qwen3-max, qwen3.x and the
 *   open qwen3 hybrids); commercial hybrids default to off, open qwen3 to on:
 *   https://help.aliyun.com/en/model-studio/deep-thinking
 * - Thinking-only models (qwen3-*-thinking-*, qwq, qvq, deepseek-r1) refuse `enable_thinking: false`
 *   ("The value of the enable_thinking parameter is restricted to True."), so nothing is sent for them:
 *   github.com/lobehub/lobehub/issues/8613. Instruct-only models get no switch either.
 * - Implicit cache: automatic, cannot be turned off, not on snapshot/`latest` models; minimum 1024 tokens on the
 *   current page (an earlier version said 256): https://help.aliyun.com/model-studio/context-cache,
 *   https://help.aliyun.com/zh/model-studio/context-cache. Hits are usage.prompt_tokens_details.cached_tokens.
 * - Context windows vary per model and snapshot and were not established from the pages above: the generic
 *   per-model table (token-count.ts) applies.
 */

const THINKING_ONLY = /(^qwq|^qvq|-thinking|^deepseek-r1)/;
const HYBRID = /^(qwen-plus|qwen-flash|qwen-turbo|qwen3-max|qwen3\.\d|qwen3-\d+b(-a\d+b)?$|deepseek-v3\.[12])/;

/** DashScope (Qwen). */
export const dashScopeProfile: ProviderProfile = {
  kind: 'dashscope',
  label: 'Alibaba Cloud Model Studio (Qwen)',
  docs: ['https://help.aliyun.com/en/model-studio/deep-thinking', 'https://help.aliyun.com/model-studio/context-cache'],
  defaultBaseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'enable_thinking'],
  models: ['qwen-plus', 'qwen-flash', 'qwen3-max', 'qwen-turbo'],
  usage: OPENAI_USAGE,
  rules: (model, thinking) => {
    const m = bareModel(model);
    if (THINKING_ONLY.test(m) || !HYBRID.test(m)) return plainRules();
    return plainRules({ enable_thinking: thinking });
  },
  cache: () => cacheRule('auto', 1024, 1, 'implicit cache from 1024 tokens (256 on an earlier page); not on snapshot or latest models'),
  contextWindow: () => undefined,
};
