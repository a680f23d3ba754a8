import { OPENAI_USAGE, PLAIN_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * Local OpenAI-compatible servers other than Ollama. Their context window is whatever the server was started
 * with, so the generic per-model table applies.
 */

/*
 * LM Studio (default port 1234). `chat_template_kwargs` is ignored on /v1/chat/completions and no reliable
 * per-request thinking switch is documented (`/no_think` in the prompt or a template edit are the workarounds;
 * `reasoning.effort` exists only for gpt-oss on /v1/responses), so nothing is sent:
 * github.com/lmstudio-ai/lmstudio-bug-tracker/issues/632, /issues/1573, /issues/1990,
 * https://lmstudio.ai/docs/developer/api-changelog. No cached tokens reported.
 */

/** LM Studio. */
export const lmStudioProfile: ProviderProfile = {
  kind: 'lmstudio',
  label: 'LM Studio',
  docs: ['https://lmstudio.ai/docs/developer/openai-compat', 'https://lmstudio.ai/docs/developer/api-changelog'],
  defaultBaseURL: 'http://localhost:1234/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature'],
  models: [],
  usage: PLAIN_USAGE,
  rules: () => plainRules(),
  cache: () => cacheRule('none', 0, 1, 'no cached tokens reported'),
  contextWindow: () => undefined,
};

/*
 * vLLM (default port 8000). Qwen3/GLM chat templates read `chat_template_kwargs.enable_thinking`; unknown
 * fields are ignored with a server warning: github.com/vllm-project/vllm/pull/10463,
 * github.com/QwenLM/Qwen3/discussions/1300. Automatic prefix caching; cached tokens appear in
 * prompt_tokens_details only when the server runs with --enable-prompt-tokens-details:
 * github.com/vllm-project/vllm/issues/16162
 */

/** vLLM. */
export const vllmProfile: ProviderProfile = {
  kind: 'vllm',
  label: 'vLLM',
  docs: ['https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html', 'https://github.com/vllm-project/vllm/pull/10463'],
  defaultBaseURL: 'http://localhost:8000/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'chat_template_kwargs'],
  models: [],
  usage: OPENAI_USAGE,
  rules: (_model, thinking) => plainRules({ chat_template_kwargs: { enable_thinking: thinking } }),
  cache: () => cacheRule('auto', 0, 1, 'automatic prefix caching; reported only with --enable-prompt-tokens-details'),
  contextWindow: () => undefined,
};

/*
 * llama.cpp server (llama-server, default port 8080). With --jinja the chat template reads
 * `chat_template_kwargs.enable_thinking`; the slot's prompt prefix is reused and reported as
 * prompt_tokens_details.cached_tokens (builds since Feb 2026): github.com/ggml-org/llama.cpp/pull/19361,
 * github.com/skye-harris/hass_local_openai_llm/issues/71
 */

/** llama.cpp server. */
export const llamaCppProfile: ProviderProfile = {
  kind: 'llamacpp',
  label: 'llama.cpp server',
  docs: ['https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md', 'https://github.com/ggml-org/llama.cpp/pull/19361'],
  defaultBaseURL: 'http://localhost:8080/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'chat_template_kwargs'],
  models: [],
  usage: OPENAI_USAGE,
  rules: (_model, thinking) => plainRules({ chat_template_kwargs: { enable_thinking: thinking } }),
  cache: () => cacheRule('auto', 0, 1, "the slot's prompt prefix is reused; no minimum"),
  contextWindow: () => undefined,
};
