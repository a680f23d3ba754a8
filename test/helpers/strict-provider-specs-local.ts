import type { ProviderKind } from '../../src/shared/provider-kinds.ts';
import type { Body, StrictSpec } from './strict-providers.ts';

/*
 * Local servers (Ollama, LM Studio, vLLM, llama.cpp) and "other". The local servers ignore fields they do not
 * know, so for them the emulation's teeth are the thinking state: a model that keeps reasoning because the
 * switch Tingxie sent is not one the server reads streams its reasoning, and the contract test sees it.
 */

const lower = (m: string): string => m.toLowerCase();
const kwargsThinking = (b: Body): unknown => (b.chat_template_kwargs as { enable_thinking?: unknown } | undefined)?.enable_thinking;

/** Ollama model families with the thinking capability (ollama.com/search?c=thinking). */
const OLLAMA_THINKING = /^(qwen3(?!-coder|-vl)|qwq|deepseek-r1|gpt-oss|magistral)/;
const OLLAMA_EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh', 'max'];

const ollama: StrictSpec = {
  kind: 'ollama',
  // docs/api/openai-compatibility.mdx: the /v1 request fields (`think` is not one of them: it is dropped).
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'seed', 'stop', 'frequency_penalty', 'presence_penalty', 'response_format', 'tools', 'reasoning_effort', 'reasoning', 'logprobs', 'top_logprobs'],
  unknown: 'ignore',
  unknownField: () => ({ status: 400, body: { error: { message: 'invalid request', type: 'invalid_request_error', param: null, code: null } } }),
  check: (b, model) => {
    if (!Object.hasOwn(b, 'reasoning_effort')) return null;
    const e = String(b.reasoning_effort);
    // openai/openai.go thinkFromReasoningEffort; server/routes.go ChatHandler ("does not support thinking").
    if (!OLLAMA_EFFORTS.includes(e)) return { status: 400, body: { error: { message: `invalid reasoning value: '${e}' (must be "high", "medium", "low", "xhigh", "max", or "none")`, type: 'invalid_request_error', param: null, code: null } } };
    if (e !== 'none' && !OLLAMA_THINKING.test(lower(model))) return { status: 400, body: { error: { message: `"${model}" does not support thinking`, type: 'invalid_request_error', param: null, code: null } } };
    return null;
  },
  // A thinking-capable model thinks unless told "none" (routes.go: Think defaults to true for it).
  thinks: (b, model) => OLLAMA_THINKING.test(lower(model)) && b.reasoning_effort !== 'none',
  reasoningField: 'reasoning',
  usage: { shape: 'plain', place: 'include-usage' },
  cache: () => ({ kind: 'unreported' }),
};

const lmStudio: StrictSpec = {
  kind: 'lmstudio',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'repeat_penalty', 'response_format', 'tools', 'tool_choice', 'logit_bias', 'ttl', 'draft_model'],
  unknown: 'ignore',
  unknownField: () => ({ status: 400, body: { error: 'invalid request' } }),
  check: () => null,
  thinks: (_b, model) => /qwen3/.test(lower(model)), // lmstudio-bug-tracker#632/#1573: no per-request off switch
  reasoningField: 'reasoning_content',
  usage: { shape: 'plain', place: 'include-usage' },
  cache: () => ({ kind: 'unreported' }),
};

const vllm: StrictSpec = {
  kind: 'vllm',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'min_p', 'n', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'repetition_penalty', 'response_format', 'tools', 'tool_choice', 'chat_template_kwargs', 'logprobs', 'top_logprobs'],
  unknown: 'ignore', // extra fields are ignored with a server-side warning (vllm#10463)
  unknownField: () => ({ status: 400, body: { object: 'error', message: 'invalid request', type: 'BadRequestError', code: 400 } }),
  check: () => null,
  thinks: (b, model) => /qwen3/.test(lower(model)) && kwargsThinking(b) !== false,
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'unreported' }), // cached tokens need --enable-prompt-tokens-details (vllm#16162)
};

const llamaCpp: StrictSpec = {
  kind: 'llamacpp',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'min_p', 'n', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'repeat_penalty', 'response_format', 'tools', 'tool_choice', 'chat_template_kwargs', 'cache_prompt', 'reasoning_format', 'logprobs', 'top_logprobs'],
  unknown: 'ignore',
  unknownField: () => ({ status: 400, body: { error: { code: 400, message: 'invalid request', type: 'invalid_request_error' } } }),
  check: () => null,
  thinks: (b, model) => /qwen3/.test(lower(model)) && kwargsThinking(b) !== false,
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'min-prefix', min: 0 }), // the slot's prompt prefix is reused (llama.cpp#19361)
};

/** "Other": the strictest plain OpenAI-compatible server: the core fields and nothing else. */
const other: StrictSpec = {
  kind: 'other',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature'],
  unknown: 'reject',
  unknownField: (f) => ({ status: 400, body: { error: { message: `Unrecognized request argument supplied: ${f.join(', ')}`, type: 'invalid_request_error', param: null, code: null } } }),
  check: () => null,
  thinks: () => false,
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'blocks', min: 1024, step: 128 }),
};

/**
 * The built-in engine (src/main/enhance/local-llm/): it reads the core fields of the built body (messages,
 * max_tokens, temperature) and nothing else, so a body with more would be a profile bug; it keeps a warm
 * sequence per mode (any common prefix is reused).
 */
const local: StrictSpec = { ...other, kind: 'local', cache: () => ({ kind: 'min-prefix', min: 0 }) };

/** Local servers, the built-in engine and "other". */
export const LOCAL_SPECS: Pick<Record<ProviderKind, StrictSpec>, 'local' | 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp' | 'other'> = { local, ollama, lmstudio: lmStudio, vllm, llamacpp: llamaCpp, other };
