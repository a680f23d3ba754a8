import { OLLAMA_DEFAULT_NUM_CTX } from '../context-window.ts';
import { PLAIN_USAGE, cacheRule, plainRules, type ProviderProfile } from './profile.ts';

/*
 * Ollama's OpenAI-compatible API (/v1).
 * - `/v1` has no `think` field; it maps reasoning_effort to the native switch: "none" → think false, low/medium/
 *   high/max as levels, any other word a 400: ollama/ollama openai/openai.go (thinkFromReasoningEffort),
 *   docs/api/openai-compatibility.mdx, github.com/ollama/ollama/issues/17969
 * - think false is accepted by every model; think true on a model without the thinking capability is a 400
 *   ("\"qwen2.5:7b\" does not support thinking"): ollama/ollama server/routes.go (ChatHandler). So "off" always
 *   sends "none", and "on" asks for reasoning only from model families that think.
 * - Usage has no cached-token field (the local KV cache is reused but not reported): openai/openai.go (Usage).
 * - The context window is the server's num_ctx (4k to 256k depending on VRAM, docs/context-length.mdx), not a
 *   model property: context-window.ts asks the server (/api/show, /api/ps); until it answers, or when it cannot,
 *   the smallest current default (4096) applies rather than the model's trained length.
 */

const THINKING_FAMILIES = /^(qwen3(?!-coder|-vl|-embedding)|qwq|deepseek-r1|deepseek-v3\.[12]|gpt-oss|magistral|phi4-(mini-)?reasoning|cogito)/;

/** Ollama. */
export const ollamaProfile: ProviderProfile = {
  kind: 'ollama',
  label: 'Ollama',
  docs: ['https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx', 'https://github.com/ollama/ollama/blob/main/openai/openai.go'],
  defaultBaseURL: 'http://localhost:11434/v1',
  fields: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'reasoning_effort'],
  models: ['qwen2.5:7b', 'qwen3:8b', 'gemma3:12b', 'llama3.1:8b'],
  usage: PLAIN_USAGE,
  rules: (model, thinking) => {
    if (!thinking) return plainRules({ reasoning_effort: 'none' });
    return plainRules(THINKING_FAMILIES.test(model.toLowerCase()) ? { reasoning_effort: 'medium' } : {});
  },
  cache: () => cacheRule('none', 0, 1, 'no cached tokens reported (the local KV cache is reused silently)'),
  contextWindow: () => OLLAMA_DEFAULT_NUM_CTX,
};
