import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Enhancer } from '../../../../src/main/enhance/enhancer.ts';
import { streamChat } from '../../../../src/main/enhance/llm-client.ts';
import { parseProviderError } from '../../../../src/main/enhance/provider-error.ts';
import type { EnhancerSettings } from '../../../../src/main/enhance/enhancer.ts';
import type { ProviderRefusalKind } from '../../../../src/shared/notices/notice.ts';
import { noticeText, providerRefusalText } from '../../../../src/shared/notices/notice-text.ts';

/** A realistic-looking API key the tests assert never leaks. */
const SECRET_KEY = 'sk-live-TINGXIE-0123456789abcdefSECRET';

/** Enhancer settings without history or vocabulary (this file needs only the provider call). */
function testSettings(over: Partial<EnhancerSettings> = {}): EnhancerSettings {
  return {
    mode: 'proofread', providerId: 'test', model: 'test-model', thinking: false, lang: 'zh', timeoutMs: 5000, connectTimeoutMs: 5000, maxRetries: 0,
    maxOutputTokens: 512, history: { enabled: false, maxEntries: 0, refreshThreshold: 50, maxHistoryChars: 0 },
    vocabulary: { enabled: false, maxLlmEntries: 0 }, contextNote: '', ...over,
  };
}

/**
 * Readable failures: every documented shape of a provider's error body (the sources are cited in
 * src/main/enhance/provider-error.ts) becomes one structured refusal and one sentence per UI language
 * saying what was refused and what to change. Protects: the sentence is what the user reads, the raw
 * body reaches only the log, and no API key reaches either.
 */

interface Shape {
  readonly name: string;
  readonly status: number;
  /** The body exactly as the provider sends it. */
  readonly body: string;
  readonly contentType?: string;
  readonly kind: ProviderRefusalKind;
  readonly field?: string;
  readonly model?: string;
  readonly en: string;
  readonly zh: string;
}

const FIELD_EN = (f: string): string => `The provider does not accept the field “${f}”: choose the right provider type in Settings › AI, or remove the field in extra_body.`;
const FIELD_ZH = (f: string): string => `服务商不接受字段“${f}”：请在“设置 › AI”中选择正确的服务商类型，或在 extra_body 中删除该字段。`;
const MODEL_EN = (m: string): string => `The model “${m}” is not available: choose a current model in Settings › AI.`;
const MODEL_ZH = (m: string): string => `模型名“${m}”不可用：请在“设置 › AI”中选择当前的模型。`;
const VALUE_EN = (f: string): string => `The provider does not accept the value of “${f}”: choose the right provider type in Settings › AI, or change the value in extra_body.`;
const VALUE_ZH = (f: string): string => `服务商不接受“${f}”的取值：请在“设置 › AI”中选择正确的服务商类型，或在 extra_body 中修改该值。`;
const AUTH_EN = 'The provider refused the API key: check the key in Settings › AI.';
const AUTH_ZH = '服务商拒绝了 API 密钥：请在“设置 › AI”中检查密钥。';
const QUOTA_EN = 'The provider account has no balance or quota left: top it up with the provider, or choose another provider in Settings › AI.';
const QUOTA_ZH = '服务商账户余额或额度不足：请到服务商处充值，或在“设置 › AI”中换一个服务商。';
const CONTEXT_EN = 'The request is too long for the model’s context: turn the history down in Settings › AI, or choose a model with a longer context.';
const CONTEXT_ZH = '请求超出了模型的上下文长度：请在“设置 › AI”中减少历史记录，或换用上下文更长的模型。';
const RATE_EN = 'The provider is limiting the request rate: wait a moment and dictate again, or choose another model in Settings › AI.';
const RATE_ZH = '服务商限制了请求频率：请稍等片刻再听写，或在“设置 › AI”中换一个模型。';

const json = (v: unknown): string => JSON.stringify(v);
const mistralItem = (loc: string[]): unknown => ({ type: 'extra_forbidden', loc: ['body', ...loc], msg: 'Extra inputs are not permitted', input: {} });

const SHAPES: readonly Shape[] = [
  {
    name: 'OpenAI unsupported_parameter (gpt-5, max_tokens)',
    status: 400,
    body: json({ error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } }),
    kind: 'unknown-field', field: 'max_tokens', en: FIELD_EN('max_tokens'), zh: FIELD_ZH('max_tokens'),
  },
  {
    name: 'OpenAI unsupported_value (temperature on a reasoning model)',
    status: 400,
    body: json({ error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }),
    kind: 'bad-parameter', field: 'temperature', en: VALUE_EN('temperature'), zh: VALUE_ZH('temperature'),
  },
  {
    name: 'OpenAI model_not_found',
    status: 404,
    body: json({ error: { message: 'The model `gpt-4-nope` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } }),
    kind: 'bad-model', model: 'gpt-4-nope', en: MODEL_EN('gpt-4-nope'), zh: MODEL_ZH('gpt-4-nope'),
  },
  {
    name: 'OpenAI insufficient_quota (a 429 that is not a rate limit)',
    status: 429,
    body: json({ error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }),
    kind: 'quota', en: QUOTA_EN, zh: QUOTA_ZH,
  },
  {
    name: 'Azure OpenAI unrecognized argument',
    status: 400,
    body: json({ error: { message: 'Unrecognized request argument supplied: chat_template_kwargs', type: 'invalid_request_error', param: null, code: null } }),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'Groq unsupported property',
    status: 400,
    body: json({ error: { message: "property 'chat_template_kwargs' is unsupported, did you mean 'temperature'?", type: 'invalid_request_error' } }),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'Cerebras wrong_api_format (flat, no envelope)',
    status: 400,
    body: json({ message: "chat_template_kwargs: property 'chat_template_kwargs' is unsupported", type: 'invalid_request_error', param: 'validation_error', code: 'wrong_api_format' }),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'DeepSeek retired model name',
    status: 400,
    body: json({ error: { message: 'The supported API model names are deepseek-v4-pro or deepseek-v4-flash, but you passed deepseek-chat.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }),
    kind: 'bad-model', model: 'deepseek-chat', en: MODEL_EN('deepseek-chat'), zh: MODEL_ZH('deepseek-chat'),
  },
  {
    name: 'Moonshot fixed temperature',
    status: 400,
    body: json({ error: { message: 'invalid temperature: only 1 is allowed for this model', type: 'invalid_request_error' } }),
    kind: 'bad-parameter', field: 'temperature', en: VALUE_EN('temperature'), zh: VALUE_ZH('temperature'),
  },
  {
    name: 'Moonshot exceeded_current_quota_error',
    status: 429,
    body: json({ error: { message: 'You exceeded your current quota, please check your plan and billing details', type: 'exceeded_current_quota_error' } }),
    kind: 'quota', en: QUOTA_EN, zh: QUOTA_ZH,
  },
  {
    name: 'OpenRouter provider error with metadata.raw',
    status: 400,
    body: json({
      error: {
        message: 'Provider returned error', code: 400,
        metadata: { raw: json({ error: { message: 'Reasoning is mandatory for this endpoint and cannot be disabled.', type: 'invalid_request_error' } }), provider_name: 'DeepInfra' },
      },
      user_id: 'user_2x',
    }),
    kind: 'bad-parameter', field: 'reasoning', en: VALUE_EN('reasoning'), zh: VALUE_ZH('reasoning'),
  },
  {
    name: 'OpenRouter upstream rate limit in metadata.raw (plain text)',
    status: 429,
    body: json({ error: { message: 'Provider returned error', code: 429, metadata: { raw: 'z-ai/glm-5.3-flash is temporarily rate-limited upstream. Please retry shortly.', provider_name: 'BaseTen' } } }),
    kind: 'rate-limit', en: RATE_EN, zh: RATE_ZH,
  },
  {
    name: 'Gemini OpenAI endpoint: a JSON array',
    status: 400,
    body: json([{ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "chat_template_kwargs": Cannot find field.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ description: 'Invalid JSON payload received. Unknown name "chat_template_kwargs": Cannot find field.' }] }] } }]),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'Gemini bad key (a 400 with API_KEY_INVALID)',
    status: 400,
    body: json([{ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }] } }]),
    kind: 'auth', en: AUTH_EN, zh: AUTH_ZH,
  },
  {
    name: 'Mistral 422 extra_forbidden (message holds the detail)',
    status: 422,
    body: json({ object: 'error', message: { detail: [mistralItem(['stream_options', 'include_usage']), mistralItem(['chat_template_kwargs'])] }, type: 'invalid_request_error', param: null, code: null }),
    kind: 'unknown-field', field: 'stream_options.include_usage', en: FIELD_EN('stream_options.include_usage'), zh: FIELD_ZH('stream_options.include_usage'),
  },
  {
    name: 'Mistral 422 with the detail as a JSON string',
    status: 422,
    body: json({ object: 'error', message: json({ detail: [mistralItem(['chat_template_kwargs'])] }), type: 'internal_error_proxy', param: null, code: '1000' }),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'Mistral 422, newer top-level detail',
    status: 422,
    body: json({ object: 'Error', detail: [mistralItem(['chat_template_kwargs'])], message: [mistralItem(['chat_template_kwargs'])], type: 'invalid_request_error', code: 3001 }),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'vLLM-based host, Python repr of the validation error',
    status: 400,
    body: json({ object: 'error', message: "[{'type': 'extra_forbidden', 'loc': ('body', 'chat_template_kwargs'), 'msg': 'Extra inputs are not permitted', 'input': {}}]", type: 'BadRequestError', param: null, code: 400 }),
    kind: 'unknown-field', field: 'chat_template_kwargs', en: FIELD_EN('chat_template_kwargs'), zh: FIELD_ZH('chat_template_kwargs'),
  },
  {
    name: 'DashScope native {code,message,request_id}',
    status: 401,
    body: json({ code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: '01415ff3-53f4-989d-83c0-3eb61fa1418e' }),
    kind: 'auth', en: AUTH_EN, zh: AUTH_ZH,
  },
  {
    name: 'DashScope compatible mode (thinking-only model)',
    status: 400,
    body: json({ error: { code: 'invalid_parameter_error', message: 'The value of the enable_thinking parameter is restricted to True.', param: null, type: 'invalid_request_error' }, request_id: '53ada3be-865a-4b26-a48d-1ca6e3cf6219' }),
    kind: 'bad-parameter', field: 'enable_thinking', en: VALUE_EN('enable_thinking'), zh: VALUE_ZH('enable_thinking'),
  },
  {
    name: 'Zhipu model does not exist (code 1211, no model name)',
    status: 400,
    body: json({ error: { code: '1211', message: '模型不存在，请检查模型代码。' } }),
    kind: 'bad-model', en: 'The model is not available: choose a current model in Settings › AI.', zh: '模型名不可用：请在“设置 › AI”中选择当前的模型。',
  },
  {
    name: 'Zhipu parameter error (code 1214)',
    status: 400,
    body: json({ error: { code: '1214', message: 'max_tokens参数非法。请检查文档。' } }),
    kind: 'bad-parameter', field: 'max_tokens', en: VALUE_EN('max_tokens'), zh: VALUE_ZH('max_tokens'),
  },
  {
    name: 'SiliconFlow {code:20012,message,data}',
    status: 400,
    body: json({ code: 20012, message: 'Model does not exist. Please check it carefully.', data: null }),
    kind: 'bad-model', en: 'The model is not available: choose a current model in Settings › AI.', zh: '模型名不可用：请在“设置 › AI”中选择当前的模型。',
  },
  {
    name: 'Ollama native {error: "…"} (a string)',
    status: 404,
    body: json({ error: 'model "qwen3:8b" not found, try pulling it first' }),
    kind: 'bad-model', model: 'qwen3:8b', en: MODEL_EN('qwen3:8b'), zh: MODEL_ZH('qwen3:8b'),
  },
  {
    name: 'Ollama /v1 envelope',
    status: 404,
    body: json({ error: { message: 'model "qwen3:8b" not found, try pulling it first', type: 'api_error', param: null, code: null } }),
    kind: 'bad-model', model: 'qwen3:8b', en: MODEL_EN('qwen3:8b'), zh: MODEL_ZH('qwen3:8b'),
  },
  {
    name: 'vLLM context length',
    status: 400,
    body: json({ error: { message: "You passed 1015 input tokens and requested 4096 output tokens. However, the model's context length is only 4096 tokens, resulting in a maximum input length of 0 tokens. Please reduce the length of the input prompt. (parameter=input_tokens, value=1015)", type: 'BadRequestError', param: 'input_tokens', code: 400 } }),
    kind: 'context-too-long', en: CONTEXT_EN, zh: CONTEXT_ZH,
  },
  {
    name: 'vLLM {object:"error",message,…}',
    status: 400,
    body: json({ object: 'error', message: 'max_tokens must be at least 1, got -186.', type: 'BadRequestError', param: null, code: 400 }),
    kind: 'bad-parameter', field: 'max_tokens', en: VALUE_EN('max_tokens'), zh: VALUE_ZH('max_tokens'),
  },
  {
    name: 'llama.cpp server exceed_context_size_error',
    status: 400,
    body: json({ error: { code: 400, message: 'request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 4390, n_ctx: 4096 } }),
    kind: 'context-too-long', en: CONTEXT_EN, zh: CONTEXT_ZH,
  },
  {
    name: 'HTML page from a gateway',
    status: 502,
    contentType: 'text/html',
    body: '<!DOCTYPE html>\n<html class="no-js" lang="en-US">\n<head>\n<title>api.example.com | 502: Bad gateway</title>\n<meta charset="UTF-8" />\n</head>\n<body><div id="cf-wrapper"><h1><span>Bad gateway</span></h1></div></body></html>',
    kind: 'server',
    en: 'The provider had a server error (“api.example.com | 502: Bad gateway”): try again later.',
    zh: '服务商出现服务器错误（“api.example.com | 502: Bad gateway”）：请稍后再试。',
  },
  {
    name: 'plain text from a proxy',
    status: 503,
    contentType: 'text/plain',
    body: 'upstream connect error or disconnect/reset before headers. reset reason: overflow',
    kind: 'server',
    en: 'The provider had a server error (“upstream connect error or disconnect/reset before headers. reset reason: overflow”): try again later.',
    zh: '服务商出现服务器错误（“upstream connect error or disconnect/reset before headers. reset reason: overflow”）：请稍后再试。',
  },
];

describe('provider error bodies → one refusal and one sentence per language', () => {
  it('covers at least 12 documented shapes', () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(12);
  });

  it.each(SHAPES.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const r = parseProviderError(s.status, s.body);
    expect({ kind: r.kind, field: r.field, model: r.model }).toEqual({ kind: s.kind, field: s.field, model: s.model });
    expect(providerRefusalText('en', r)).toBe(s.en);
    expect(providerRefusalText('zh', r)).toBe(s.zh);
    // The provider's own message: one line, trimmed, at most 200 characters, never the raw JSON.
    expect(r.providerMessage).toBe(r.providerMessage.trim());
    expect(r.providerMessage).not.toMatch(/\n/);
    expect(Array.from(r.providerMessage).length).toBeLessThanOrEqual(200);
    expect(r.providerMessage).not.toMatch(/^[[{]|<html|<!DOCTYPE/i);
  });

  it('names the upstream provider behind OpenRouter and cuts a long message at 200 characters', () => {
    expect(parseProviderError(400, SHAPES.find((s) => s.name.startsWith('OpenRouter provider'))?.body).providerMessage).toBe(
      'DeepInfra: Reasoning is mandatory for this endpoint and cannot be disabled.',
    );
    const long = parseProviderError(400, json({ error: { message: `weird ${'x'.repeat(500)}\n second line` } }));
    expect(Array.from(long.providerMessage)).toHaveLength(200);
    expect(long.providerMessage.endsWith('…')).toBe(true);
    expect(parseProviderError(500, '')).toEqual({ kind: 'server', providerMessage: 'HTTP 500' });
  });
});

describe('through the openai SDK and the enhancer', () => {
  let server: http.Server;
  let base = '';
  const bodyFor = (i: number): Shape | undefined => SHAPES[i];

  beforeAll(async () => {
    // Answers /s/<index>/chat/completions with that shape's status and body, byte for byte.
    server = http.createServer((req, res) => {
      req.resume();
      const i = Number(/^\/s\/(\d+)\//.exec(req.url ?? '')?.[1]);
      const s = i === -1 ? undefined : bodyFor(i);
      const leaky = req.url?.startsWith('/leak/');
      if (leaky) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(json([{ error: { code: 400, message: `Unknown name "chat_template_kwargs": Cannot find field. (key ${SECRET_KEY})`, status: 'INVALID_ARGUMENT' } }]));
        return;
      }
      if (!s) {
        res.writeHead(500).end();
        return;
      }
      res.writeHead(s.status, { 'content-type': s.contentType ?? 'application/json' });
      res.end(s.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('every shape reaches the failure reason as the sentence, the refusal, and the raw body as log detail', async () => {
    for (const [i, s] of SHAPES.entries()) {
      const out = await streamChat({
        provider: { id: 'p', baseURL: `${base}/s/${i}/v1`, apiKey: SECRET_KEY },
        body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        deadlineAt: Date.now() + 5000, connectTimeoutMs: 5000, maxRetries: 0,
      });
      expect(out.ok, s.name).toBe(false);
      if (out.ok) continue;
      expect({ kind: out.reason.refusal?.kind, field: out.reason.refusal?.field, model: out.reason.refusal?.model }, s.name).toEqual({ kind: s.kind, field: s.field, model: s.model });
      expect(out.reason.message, s.name).toBe(s.en);
      expect(out.reason.detail, s.name).toMatch(new RegExp(`^HTTP ${s.status}: `));
    }
  });

  it('the raw body reaches the logger and not the notice; the key reaches neither', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    const logs: string[] = [];
    const enhancer = await Enhancer.open(
      { dataDir: dir, provider: () => ({ id: 'test', baseURL: `${base}/leak/v1`, apiKey: SECRET_KEY }), log: (level, m) => logs.push(`${level}: ${m}`) },
      testSettings(),
    );
    try {
      const r = await enhancer.enhance({ text: '今天天气不错' });
      expect(r.status).toBe('fallback');
      expect(r.reason?.refusal).toMatchObject({ kind: 'unknown-field', field: 'chat_template_kwargs' });
      expect(r.reason?.message).toBe(FIELD_EN('chat_template_kwargs'));
      // The notice exactly as the session machine builds it from the port's outcome.
      const notice = { code: 'llm-fallback', reason: `${r.reason?.code}: ${r.reason?.message}`, refusal: r.reason?.refusal ?? null } as const;
      const shown = [noticeText('en', notice), noticeText('zh', notice)];
      expect(shown[0]).toBe(`Enhancement failed, using the raw transcript. ${FIELD_EN('chat_template_kwargs')}`);
      expect(shown[1]).toBe(`AI 润色失败，已改用原始识别文本。${FIELD_ZH('chat_template_kwargs')}`);
      const log = logs.join('\n');
      expect(log).toContain('INVALID_ARGUMENT'); // the raw body, in the log
      expect(log).toContain('HTTP 400');
      for (const text of shown) {
        expect(text).not.toContain('INVALID_ARGUMENT');
        expect(text).not.toContain('[{');
      }
      const everything = [log, ...shown, JSON.stringify(r)].join('\n');
      expect(everything).not.toContain(SECRET_KEY);
      expect(everything).not.toContain(SECRET_KEY.slice(-8));
    } finally {
      enhancer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a refused model the provider does not name is the configured one', async () => {
    const zhipu = SHAPES.findIndex((s) => s.name.startsWith('Zhipu model'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    const enhancer = await Enhancer.open(
      { dataDir: dir, provider: () => ({ id: 'test', baseURL: `${base}/s/${zhipu}/v1`, apiKey: undefined }) },
      testSettings({ model: 'glm-4-old' }),
    );
    try {
      const r = await enhancer.enhance({ text: '今天天气不错' });
      expect(r.reason?.refusal).toMatchObject({ kind: 'bad-model', model: 'glm-4-old' });
      expect(providerRefusalText('zh', r.reason!.refusal!)).toBe(MODEL_ZH('glm-4-old'));
    } finally {
      enhancer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
