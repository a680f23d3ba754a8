import type { ProviderKind } from '../../src/shared/provider-kinds.ts';
import type { Body, Refusal, StrictSpec } from './strict-providers.ts';

/*
 * Strict emulation of Groq, Cerebras, Mistral, Gemini and OpenRouter, from each provider's documentation
 * (cited by its profile in src/main/enhance/providers/) and the public issue threads named beside each rule.
 * Groq, Cerebras, Mistral and Gemini are documented (and reported) to refuse unknown fields; OpenRouter
 * ignores them.
 */

const has = (b: Body, k: string): boolean => Object.hasOwn(b, k);
const lower = (m: string): string => m.toLowerCase();
const bare = (m: string): string => lower(m).slice(lower(m).lastIndexOf('/') + 1);
const effort = (b: Body): string | undefined => (has(b, 'reasoning_effort') ? String(b.reasoning_effort) : undefined);

function groqError(message: string): Refusal {
  return { status: 400, body: { error: { message, type: 'invalid_request_error' } } };
}

const groq: StrictSpec = {
  kind: 'groq',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning_effort', 'reasoning_format', 'include_reasoning', 'service_tier', 'user', 'metadata'],
  unknown: 'reject',
  // immersive-translate#3016: "property 'chat_template_kwargs' is unsupported".
  unknownField: (f) => groqError(`property '${f[0] ?? ''}' is unsupported`),
  check: (b, model) => {
    const m = bare(model);
    const e = effort(b);
    // console.groq.com/docs/reasoning, apache/maka#978: gpt-oss low/medium/high (no none); qwen3 none/default.
    const allowed = m.startsWith('gpt-oss') ? ['low', 'medium', 'high'] : m.startsWith('qwen3') ? ['none', 'default', 'low', 'medium', 'high'] : [];
    if (e !== undefined && !allowed.includes(e)) return groqError(allowed.length === 0 ? '`reasoning_effort` is not supported with this model' : `\`reasoning_effort\` must be one of ${allowed.join(', ')}`);
    if (has(b, 'reasoning_format') && m.startsWith('gpt-oss')) return groqError('`reasoning_format` is not supported with this model; use `include_reasoning`');
    return null;
  },
  thinks: (b, model) => (bare(model).startsWith('gpt-oss') ? b.include_reasoning !== false : bare(model).startsWith('qwen3') && effort(b) !== 'none'),
  reasoningField: 'reasoning',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: (model) => (bare(model).startsWith('gpt-oss') ? { kind: 'min-prefix', min: 0 } : { kind: 'zero' }),
};

function cerebrasError(field: string, message: string): Refusal {
  return { status: 400, body: { message, type: 'invalid_request_error', param: field, code: 'wrong_api_format' } };
}

const cerebras: StrictSpec = {
  kind: 'cerebras',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'seed', 'stop', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning_effort', 'reasoning_format', 'logprobs', 'top_logprobs', 'user', 'service_tier', 'prediction'],
  unknown: 'reject',
  // OpenWhispr#831: "chat_template_kwargs: property 'chat_template_kwargs' is unsupported" (wrong_api_format).
  unknownField: (f) => cerebrasError(f[0] ?? '', `${f[0] ?? ''}: property '${f[0] ?? ''}' is unsupported`),
  check: (b, model) => {
    const m = lower(model);
    const e = effort(b);
    // inference-docs.cerebras.ai/capabilities/reasoning: gpt-oss low/medium/high; GLM none turns it off.
    const allowed = m.startsWith('gpt-oss') ? ['low', 'medium', 'high'] : m.startsWith('zai-glm') ? ['none', 'low', 'medium', 'high'] : [];
    if (e !== undefined && !allowed.includes(e)) return cerebrasError('reasoning_effort', `reasoning_effort: '${e}' is not supported for model ${model}`);
    return null;
  },
  thinks: (b, model) => (lower(model).startsWith('gpt-oss') ? true : lower(model).startsWith('zai-glm') && effort(b) !== 'none'),
  reasoningField: 'reasoning',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'zero' }),
};

const MISTRAL_ADJUSTABLE = /^(mistral-small-(latest|2603)|mistral-medium-3[-.]5)/;
const mistral: StrictSpec = {
  kind: 'mistral',
  accepted: ['model', 'messages', 'stream', 'max_tokens', 'temperature', 'top_p', 'random_seed', 'stop', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls', 'presence_penalty', 'frequency_penalty', 'n', 'prediction', 'prompt_mode', 'safe_prompt', 'reasoning_effort', 'prompt_cache_key'],
  unknown: 'reject',
  // openai-agents-python#442, avante.nvim#2347: 422 extra_forbidden, one entry per extra field (stream_options too).
  unknownField: (f) => ({
    status: 422,
    body: { object: 'error', message: { detail: f.map((k) => ({ type: 'extra_forbidden', loc: ['body', k], msg: 'Extra inputs are not permitted', input: null })) }, type: 'invalid_request_message_error', param: null, code: null },
  }),
  check: (b, model) => {
    const e = effort(b);
    if (e === undefined) return null;
    // docs.mistral.ai/capabilities/reasoning/adjustable: reasoning_effort high or none, on the adjustable models.
    if (!MISTRAL_ADJUSTABLE.test(lower(model)) || (e !== 'high' && e !== 'none')) {
      return { status: 400, body: { object: 'error', message: `reasoning_effort '${e}' is not supported for model ${model}`, type: 'invalid_request_error', param: 'reasoning_effort', code: null } };
    }
    return null;
  },
  thinks: (b, model) => (MISTRAL_ADJUSTABLE.test(lower(model)) ? effort(b) === 'high' : /^magistral/.test(lower(model))),
  reasoningField: 'think-tag', // Mistral's own shape is a content array of thinking chunks; only off matters here
  usage: { shape: 'plain', place: 'finish-chunk' },
  cache: () => ({ kind: 'unreported' }),
};

function geminiError(message: string): Refusal {
  // The compatibility endpoint answers errors as a JSON array (openhanako#394).
  return { status: 400, body: [{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }] };
}

const gemini: StrictSpec = {
  kind: 'gemini',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'stop', 'seed', 'response_format', 'tools', 'tool_choice', 'reasoning_effort', 'presence_penalty', 'frequency_penalty', 'extra_body'],
  unknown: 'reject',
  unknownField: (f) => geminiError(f.map((k) => `Invalid JSON payload received. Unknown name "${k}": Cannot find field.`).join('\n')),
  check: (b, model) => {
    const m = bare(model);
    const e = effort(b);
    if (e === undefined) return null;
    if (!/^gemini-(2\.5|[3-9])/.test(m)) return geminiError('Thinking is not supported by this model.');
    if (!['none', 'minimal', 'low', 'medium', 'high'].includes(e)) return geminiError(`Invalid value for reasoning_effort: ${e}`);
    // ai.google.dev/gemini-api/docs/thinking: Pro models cannot turn thinking off.
    if (e === 'none' && m.includes('-pro')) return geminiError('Budget 0 is invalid. This model only works in thinking mode.');
    return null;
  },
  thinks: () => false, // thoughts are not streamed unless asked for through extra_body
  reasoningField: 'reasoning_content',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: (model) => ({ kind: 'min-prefix', min: bare(model).includes('-pro') ? 4096 : 1024 }),
};

/** OpenRouter models whose reasoning cannot be disabled (rakazo#114, vellum-assistant#32428, claude-code-router#1238). */
const OR_MANDATORY = /^(deepseek\/deepseek-r1|google\/gemini-3[^/]*flash|minimax\/minimax-m2|stepfun)/;
const openRouter: StrictSpec = {
  kind: 'openrouter',
  accepted: ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'min_p', 'n', 'stop', 'seed', 'repetition_penalty', 'presence_penalty', 'frequency_penalty', 'response_format', 'tools', 'tool_choice', 'reasoning', 'include_reasoning', 'usage', 'provider', 'models', 'transforms', 'route', 'user'],
  unknown: 'ignore',
  unknownField: () => ({ status: 400, body: { error: { code: 400, message: 'Invalid request' } } }),
  check: (b, model) => {
    const r = b.reasoning as { enabled?: unknown; effort?: unknown } | undefined;
    if (OR_MANDATORY.test(lower(model)) && r !== undefined && (r.enabled === false || r.effort === 'none')) {
      return { status: 400, body: { error: { code: 400, message: 'Reasoning is mandatory for this endpoint and cannot be disabled.', metadata: { provider_name: null } } } };
    }
    return null;
  },
  thinks: (b, model) => OR_MANDATORY.test(lower(model)) || ((b.reasoning as { enabled?: unknown } | undefined)?.enabled === true && /(deepseek|qwen3|r1)/.test(lower(model))),
  reasoningField: 'reasoning',
  usage: { shape: 'openai', place: 'include-usage' },
  cache: () => ({ kind: 'blocks', min: 1024, step: 128 }), // the routed provider's rule; OpenAI's here
};

/** Groq, Cerebras, Mistral, Gemini and OpenRouter. */
export const INTL_SPECS: Pick<Record<ProviderKind, StrictSpec>, 'groq' | 'cerebras' | 'mistral' | 'gemini' | 'openrouter'> = { groq, cerebras, mistral, gemini, openrouter: openRouter };
