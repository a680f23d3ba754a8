import type { ProviderKind } from '../../src/shared/provider-kinds.ts';
import type { Body, Refusal, StrictSpec } from './strict-providers.ts';

/*
 * Strict emulation of the cloud providers, each from the provider's documentation (cited by its profile in
 * src/main/enhance/providers/) and the public issue threads named beside each rule below. Where a provider's
 * handling of unknown fields is not documented, the emulation refuses them: Tingxie must send only fields the
 * provider documents. Messages and shapes are the ones quoted in those threads.
 */

const has = (b: Body, k: string): boolean => Object.hasOwn(b, k);
const thinkingType = (b: Body): unknown => (b.thinking as { type?: unknown } | undefined)?.type;
const lower = (m: string): string => m.toLowerCase();
const bare = (m: string): string => lower(m).slice(lower(m).lastIndexOf('/') + 1);

/** OpenAI's error shape. */
function openAiError(message: string, param: string | null = null, code: string | null = null, status = 400): Refusal {
  return { status, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

const OPENAI_ACCEPTED = [
  'model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'stop',
  'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'seed', 'user', 'response_format', 'tools',
  'tool_choice', 'parallel_tool_calls', 'reasoning_effort', 'verbosity', 'prompt_cache_key', 'safety_identifier', 'store', 'metadata',
  'service_tier', 'modalities', 'audio', 'prediction', 'web_search_options',
];

/** OpenAI model rules: griptape#312 (max_tokens), FluidVoice#55 (temperature), opencode#4451 and the ReasoningEffort enum, one-api#120 (chat models). */
function openAiCheck(b: Body, model: string): Refusal | null {
  const m = lower(model);
  const chat = /^(gpt-5(\.\d+)?-chat|chatgpt-)/.test(m);
  const reasoning = !chat && /^(o\d|gpt-5)/.test(m);
  if (reasoning && has(b, 'max_tokens')) return openAiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
  if (reasoning && has(b, 'temperature') && b.temperature !== 1) {
    return openAiError(`Unsupported value: 'temperature' does not support ${String(b.temperature)} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
  }
  if (has(b, 'reasoning_effort')) {
    if (!reasoning) return openAiError("Unsupported parameter: 'reasoning_effort' is not supported with this model.", 'reasoning_effort', 'unsupported_parameter');
    const allowed = /^gpt-5(\.\d+)?-pro/.test(m) ? ['high'] : /^o\d/.test(m) ? ['low', 'medium', 'high'] : /^gpt-5\.\d/.test(m) ? ['none', 'low', 'medium', 'high'] : ['minimal', 'low', 'medium', 'high'];
    if (!allowed.includes(String(b.reasoning_effort))) {
      return openAiError(`Unsupported value: 'reasoning_effort' does not support '${String(b.reasoning_effort)}' with this model. Supported values are: ${allowed.map((v) => `'${v}'`).join(', ')}.`, 'reasoning_effort', 'unsupported_value');
    }
  }
  return null;
}

const openAi: StrictSpec = {
  kind: 'openai',
  accepted: OPENAI_ACCEPTED,
  unknown: 'reject',
  unknownField: (f) => openAiError(`Unrecognized request argument supplied: ${f.join(', ')}`),
  check: openAiCheck,
  thinks: () => false, // Chat Completions never streams OpenAI's reasoning text
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'blocks', min: 1024, step: 128 }),
};

const deepSeek: StrictSpec = {
  kind: 'deepseek',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'response_format', 'stop', 'tools', 'tool_choice', 'logprobs', 'top_logprobs', 'thinking', 'reasoning_effort'],
  unknown: 'reject',
  unknownField: (f) => openAiError(`Unknown request parameter: ${f.join(', ')}`, f[0] ?? null, 'invalid_request_error'),
  check: (b, model) => {
    // raycast/extensions#29730: the retired names are refused outright.
    if (!['deepseek-v4-flash', 'deepseek-v4-pro'].includes(model)) return openAiError(`The supported API model names are deepseek-v4-pro or deepseek-v4-flash, but you passed ${model}.`, null, 'invalid_request_error');
    const t = thinkingType(b);
    if (has(b, 'thinking') && t !== 'enabled' && t !== 'disabled') return openAiError('thinking.type must be "enabled" or "disabled"', 'thinking', 'invalid_request_error');
    return null;
  },
  thinks: (b) => thinkingType(b) !== 'disabled', // on by default (api-docs.deepseek.com/guides/thinking_mode)
  reasoningField: 'reasoning_content',
  usage: { shape: 'deepseek', place: 'include-usage' },
  cache: () => ({ kind: 'units' }),
};

const QWEN_THINKING_ONLY = /(^qwq|^qvq|-thinking|^deepseek-r1)/;
const dashScope: StrictSpec = {
  kind: 'dashscope',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'top_p', 'top_k', 'presence_penalty', 'seed', 'stop', 'n', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'logprobs', 'top_logprobs', 'enable_thinking', 'thinking_budget', 'enable_search'],
  unknown: 'reject',
  unknownField: (f) => openAiError(`<400> InternalError.Algo.InvalidParameter: Unknown parameter: ${f.join(', ')}`, null, 'invalid_parameter_error'),
  check: (b, model) =>
    // lobehub#8613: thinking-only models refuse enable_thinking=false.
    QWEN_THINKING_ONLY.test(bare(model)) && b.enable_thinking === false
      ? openAiError('<400> InternalError.Algo.InvalidParameter: The value of the enable_thinking parameter is restricted to True.', null, 'invalid_parameter_error')
      : null,
  thinks: (b, model) => {
    const m = bare(model);
    if (QWEN_THINKING_ONLY.test(m)) return true;
    if (/^qwen3-\d+b/.test(m)) return b.enable_thinking !== false; // open hybrids think by default
    return b.enable_thinking === true; // commercial hybrids do not
  },
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'min-prefix', min: 1024 }),
};

const KIMI_FIXED = /^kimi-k2\.[5-9]/;
const moonshot: StrictSpec = {
  kind: 'moonshot',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'presence_penalty', 'frequency_penalty', 'stop', 'response_format', 'tools', 'tool_choice', 'thinking'],
  unknown: 'reject',
  unknownField: (f) => ({ status: 400, body: { error: { message: `Invalid request: unknown field ${f.join(', ')}`, type: 'invalid_request_error' } } }),
  check: (b, model) => {
    if (!KIMI_FIXED.test(lower(model)) || !has(b, 'temperature')) return null;
    // VideoAdGuard#34, hermes-agent#12435: 1 when thinking, 0.6 when not; nothing else.
    const only = thinkingType(b) === 'disabled' ? 0.6 : 1;
    return b.temperature === only ? null : { status: 400, body: { error: { message: `invalid temperature: only ${only} is allowed for this model`, type: 'invalid_request_error' } } };
  },
  thinks: (b, model) => (KIMI_FIXED.test(lower(model)) ? thinkingType(b) !== 'disabled' : /^kimi-k2-thinking/.test(lower(model))),
  reasoningField: 'reasoning_content',
  usage: { shape: 'moonshot', place: 'choice' },
  cache: () => ({ kind: 'blocks', min: 256, step: 256 }),
};

const zhipu: StrictSpec = {
  kind: 'zhipu',
  accepted: ['model', 'messages', 'stream', 'max_tokens', 'temperature', 'top_p', 'do_sample', 'stop', 'tools', 'tool_choice', 'tool_stream', 'response_format', 'request_id', 'user_id', 'thinking'],
  unknown: 'ignore', // no evidence of unknown-field rejection (research §2)
  unknownField: () => ({ status: 400, body: { error: { code: '1210', message: 'API 调用参数有误，请检查文档。' } } }),
  check: (b) => (has(b, 'thinking') && thinkingType(b) !== 'enabled' && thinkingType(b) !== 'disabled' ? { status: 400, body: { error: { code: '1214', message: 'thinking.type 参数非法' } } } : null),
  thinks: (b, model) => /^glm-(4\.[5-9]|[5-9])/.test(lower(model)) && thinkingType(b) !== 'disabled',
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'finish-chunk' },
  cache: () => ({ kind: 'min-prefix', min: 0 }),
};

const SF_HYBRID = /^(qwen3-\d+b(-a\d+b)?$|qwen3\.\d|deepseek-v3\.[12]|deepseek-v4|glm-(4\.[5-9]|[5-9])|hunyuan-a13b)/;
const siliconFlow: StrictSpec = {
  kind: 'siliconflow',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature', 'top_p', 'top_k', 'min_p', 'frequency_penalty', 'n', 'stop', 'response_format', 'tools', 'enable_thinking', 'thinking_budget'],
  unknown: 'ignore',
  unknownField: () => ({ status: 400, body: { code: 20015, message: 'The parameter is invalid. Please check again.', data: null } }),
  // cherry-studio#6642: enable_thinking on a model without the switch is code 20015.
  check: (b, model) => (has(b, 'enable_thinking') && !SF_HYBRID.test(bare(model)) ? { status: 400, body: { code: 20015, message: 'The parameter is invalid. Please check again.', data: null } } : null),
  thinks: (b, model) => (/^qwen3/.test(bare(model)) ? b.enable_thinking !== false : SF_HYBRID.test(bare(model)) && b.enable_thinking === true),
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'unreported' }),
};

const ark: StrictSpec = {
  kind: 'volcengine-ark',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'logprobs', 'top_logprobs', 'logit_bias', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'thinking', 'reasoning_effort', 'service_tier'],
  unknown: 'ignore',
  unknownField: (f) => ({ status: 400, body: { error: { code: 'InvalidParameter', message: `The parameter \`${f[0] ?? ''}\` specified in the request is not valid`, param: f[0] ?? '', type: 'BadRequest' } } }),
  check: (b) => (has(b, 'thinking') && !['enabled', 'disabled', 'auto'].includes(String(thinkingType(b))) ? { status: 400, body: { error: { code: 'InvalidParameter', message: 'The parameter `thinking.type` specified in the request is not valid', param: 'thinking.type', type: 'BadRequest' } } } : null),
  thinks: (b, model) => /^doubao-seed/.test(lower(model)) && thinkingType(b) !== 'disabled',
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'zero' }), // plain requests are not cached without the Context API
};

/** OpenAI, Azure and the Chinese cloud providers (the others: strict-provider-specs-intl.ts, strict-provider-specs-local.ts). */
export const CLOUD_SPECS: Pick<Record<ProviderKind, StrictSpec>, 'openai' | 'azure-openai' | 'deepseek' | 'dashscope' | 'moonshot' | 'zhipu' | 'siliconflow' | 'volcengine-ark'> = {
  openai: openAi,
  'azure-openai': { ...openAi, kind: 'azure-openai' }, // toponymy#148: the same "Unrecognized request argument supplied"
  deepseek: deepSeek,
  dashscope: dashScope,
  moonshot,
  zhipu,
  siliconflow: siliconFlow,
  'volcengine-ark': ark,
};
