import { CORE_FIELDS, OPENAI_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * The built-in engine (llama.cpp through node-llama-cpp in its own process: ../local-llm/). It takes the same
 * built request as a server (messages, max_tokens, temperature) but no HTTP: base_url is not used. Its model
 * is a GGUF file (a path, or a file name in <data folder>/models/llm). Each recently used mode keeps its own
 * KV-cache sequence, and the prompt's stable prefix is evaluated at key-down, so cached tokens are reported
 * for every request after the first of a mode. The window is `ai_enhance.local.context_size`.
 * https://node-llama-cpp.withcat.ai/guide/
 */

/** The built-in engine. */
export const localProfile: ProviderProfile = {
  kind: 'local',
  label: 'Built-in (this computer)',
  docs: ['https://node-llama-cpp.withcat.ai/guide/', 'https://github.com/ggml-org/llama.cpp'],
  defaultBaseURL: 'http://localhost/',
  fields: CORE_FIELDS,
  models: [],
  usage: OPENAI_USAGE,
  rules: () => plainRules(),
  cache: () => cacheRule('auto', 0, 1, "one warm KV-cache sequence per recently used mode; the prompt's stable prefix is evaluated while you speak"),
  contextWindow: () => undefined,
};
