import fs from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Enhancer, type EnhancerSettings } from '../../../../src/main/enhance/enhancer.ts';
import { listModels, type LlmProvider } from '../../../../src/main/enhance/llm-client.ts';
import { adviceFor, VERIFY_SAMPLES, verifyProvider } from '../../../../src/main/enhance/verify-provider.ts';
import type { ProviderCheckResult } from '../../../../src/shared/ipc/provider-types.ts';
import { providerCheckText } from '../../../../src/shared/notices/provider-check-text.ts';
import type { ProviderKind } from '../../../../src/shared/provider-kinds.ts';
import { startOpenAiTestServer, type OpenAiTestServer, type OpenAiTestServerOptions } from '../../../helpers/openai-test-server.ts';
import { SECRET_KEY, testSettings } from './enhance-fixture.ts';

/**
 * Settings' Verify: it makes a real dictation — the exact request the enhancer sends, through
 * the real `openai` SDK — against servers as strict as each provider (test/helpers/strict-providers.ts), and is
 * green only when a cleaned text came back; otherwise it says what was refused and what to change. Plus what a
 * server cannot play on its own: a 401 that echoes the key, a closed port, a server that never answers.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-verify-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function strictServer(kind: ProviderKind, opts: OpenAiTestServerOptions = {}): Promise<OpenAiTestServer> {
  const server = await startOpenAiTestServer({ strict: kind, ...opts });
  cleanups.push(() => server.close());
  return server;
}

const settings = (over: Partial<EnhancerSettings> = {}): EnhancerSettings =>
  testSettings({ lang: 'en', timeoutMs: 5000, connectTimeoutMs: 5000, maxRetries: 0, history: { enabled: false, maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 6000 }, vocabulary: { enabled: false, maxLlmEntries: 0 }, ...over });

function provider(kind: ProviderKind | undefined, baseURL: string, extraBody?: Record<string, unknown>): LlmProvider {
  return { id: 'p', baseURL, apiKey: SECRET_KEY, ...(kind !== undefined ? { kind } : {}), ...(extraBody ? { extraBody } : {}) };
}

const leaks = (r: ProviderCheckResult): boolean => JSON.stringify(r).includes(SECRET_KEY) || JSON.stringify(r).includes(SECRET_KEY.slice(-8));

describe('verifyProvider: a real dictation against a strict provider', () => {
  const GREEN: readonly { kind: ProviderKind; model: string; models?: readonly string[] | null; thinking?: boolean; listed: boolean | null }[] = [
    { kind: 'openai', model: 'gpt-5-mini', models: ['gpt-5-mini', 'gpt-4.1'], listed: true },
    { kind: 'deepseek', model: 'deepseek-v4-flash', models: ['deepseek-v4-flash', 'deepseek-v4-pro'], listed: true },
    { kind: 'deepseek', model: 'deepseek-v4-flash', models: ['deepseek-v4-flash'], thinking: true, listed: true },
    { kind: 'moonshot', model: 'kimi-k2.6', models: ['kimi-k2.6'], listed: true },
    { kind: 'groq', model: 'llama-3.3-70b-versatile', models: ['llama-3.3-70b-versatile'], listed: true },
    { kind: 'mistral', model: 'mistral-small-latest', models: ['mistral-small-latest'], listed: true },
    { kind: 'gemini', model: 'gemini-2.5-flash', models: ['gemini-2.5-flash'], listed: true },
    { kind: 'dashscope', model: 'qwen-plus', models: ['qwen-plus'], listed: true },
    // Zhipu has no /models: the model is not an error, the request decides.
    { kind: 'zhipu', model: 'glm-4.7', models: null, listed: null },
    // An Ark endpoint id is never in the list: accepted all the same.
    { kind: 'volcengine-ark', model: 'ep-20250101-abcde', models: ['doubao-seed-1-6-flash-250828'], listed: false },
    { kind: 'ollama', model: 'qwen3:8b', models: ['qwen3:8b'], listed: true },
    { kind: 'azure-openai', model: 'gpt-5-mini', models: ['gpt-5-mini'], listed: true },
    { kind: 'siliconflow', model: 'Qwen/Qwen3-8B', models: ['Qwen/Qwen3-8B'], listed: true },
    { kind: 'cerebras', model: 'zai-glm-4.7', models: ['zai-glm-4.7'], listed: true },
    { kind: 'openrouter', model: 'deepseek/deepseek-r1', models: ['deepseek/deepseek-r1'], listed: true },
    { kind: 'lmstudio', model: 'qwen3-8b', models: ['qwen3-8b'], listed: true },
    { kind: 'vllm', model: 'Qwen/Qwen3-8B', models: ['Qwen/Qwen3-8B'], listed: true },
    { kind: 'llamacpp', model: 'qwen3-8b', models: ['qwen3-8b'], listed: true },
    { kind: 'other', model: 'test-model', models: ['test-model'], listed: true },
  ];
  for (const c of GREEN) {
    it(`green: ${c.kind} · ${c.model}${c.thinking ? ' · thinking on' : ''}${c.listed === false ? ' (not listed)' : c.listed === null ? ' (no model list)' : ''}`, async () => {
      const server = await strictServer(c.kind, { models: c.models });
      const p = provider(c.kind, server.baseURL);
      const s = settings({ model: c.model, thinking: c.thinking ?? false });
      const r = await verifyProvider(p, s, { dataDir: dir });
      expect(server.refusals).toEqual([]);
      expect(r).toMatchObject({ ok: true, code: 'ok', model: c.model, listed: c.listed, answer: VERIFY_SAMPLES.en, refusal: null, advice: null });
      // The exact request a dictation sends: the same body the enhancer builds for the same text.
      const enhancer = await Enhancer.open({ dataDir: dir, provider: () => p }, { ...s, providerId: 'p' });
      const built = await enhancer.buildRequest(VERIFY_SAMPLES.en);
      enhancer.close();
      const chat = server.requests.filter((q) => q.path === '/v1/chat/completions');
      expect(chat).toHaveLength(1);
      expect(chat[0]?.json).toEqual(JSON.parse(JSON.stringify(built?.request.body)));
      expect(chat[0]?.json).toMatchObject({ stream: true });
      expect(chat[0]?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(providerCheckText('en', r).startsWith(`Works: a test dictation was cleaned by ${c.model} in `)).toBe(true);
      if (c.listed === false) expect(providerCheckText('en', r)).toContain('is not in the provider’s model list, but the provider accepted it');
      expect(leaks(r)).toBe(false);
    });
  }

  it('the system prompt is the mode’s, the test text is in the UI language, extra_body is applied', async () => {
    const server = await strictServer('deepseek', { models: ['deepseek-v4-flash'] });
    // A data folder of its own: the built-in mode files are written in the UI language the first time.
    const zhDir = fs.mkdtempSync(path.join(dir, 'zh-'));
    const r = await verifyProvider(provider('deepseek', server.baseURL, { top_p: 0.9 }), settings({ model: 'deepseek-v4-flash', lang: 'zh', contextNote: '我叫萍萍' }), { dataDir: zhDir });
    expect(r.ok).toBe(true);
    const body = server.requests.find((q) => q.path === '/v1/chat/completions')?.json as { messages: { role: string; content: string }[]; top_p?: number; stream_options?: unknown; thinking?: unknown };
    expect(body.messages[0]?.content).toContain('你是语音输入的校对助手');
    expect(body.messages[0]?.content).toContain('我叫萍萍');
    expect(body.messages[1]).toEqual({ role: 'user', content: VERIFY_SAMPLES.zh });
    expect(body).toMatchObject({ top_p: 0.9, stream_options: { include_usage: true }, thinking: { type: 'disabled' } });
    expect(providerCheckText('zh', r)).toMatch(/^可以使用：deepseek-v4-flash 在 [\d.]+ 秒内整理了一段测试听写/);
  });
});

describe('verifyProvider: red, with what to change', () => {
  it('wrong kind: Groq set up as "other" with chat_template_kwargs in extra_body → remove it from extra_body', async () => {
    const server = await strictServer('groq', { models: ['qwen/qwen3-32b'] });
    const r = await verifyProvider(provider('other', server.baseURL, { chat_template_kwargs: { enable_thinking: false } }), settings({ model: 'qwen/qwen3-32b' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'refused', refusal: { kind: 'unknown-field', field: 'chat_template_kwargs' }, advice: { kind: 'extra-body', field: 'chat_template_kwargs', providerKind: 'other' } });
    const en = providerCheckText('en', r);
    expect(en).toContain('The provider refused “chat_template_kwargs”');
    expect(en).toContain('It is set in this provider’s extra_body: remove it there.');
    expect(en).toContain('choose its type instead');
    expect(providerCheckText('zh', r)).toContain('。它来自该服务商的 extra_body：请在那里删除它。');
    expect(leaks(r)).toBe(false);
  });

  it('a retired DeepSeek model name → the model is not offered, and the current ones are named', async () => {
    const server = await strictServer('deepseek', { models: ['deepseek-v4-flash', 'deepseek-v4-pro'] });
    const r = await verifyProvider(provider('deepseek', server.baseURL), settings({ model: 'deepseek-chat' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'refused', listed: false, refusal: { kind: 'bad-model', model: 'deepseek-chat' }, advice: { kind: 'model', model: 'deepseek-chat', offered: ['deepseek-v4-flash', 'deepseek-v4-pro'] } });
    expect(providerCheckText('en', r)).toBe(
      'The provider does not offer the model “deepseek-chat”: “The supported API model names are deepseek-v4-pro or deepseek-v4-flash, but you passed deepseek-chat.”: choose a current one. This provider offers “deepseek-v4-flash”, “deepseek-v4-pro”.',
    );
    expect(providerCheckText('zh', r)).toContain('服务商不提供模型“deepseek-chat”');
  });

  it('Kimi K2.6 with a temperature in extra_body → the temperature is refused, and it comes from extra_body', async () => {
    const server = await strictServer('moonshot', { models: ['kimi-k2.6'] });
    const r = await verifyProvider(provider('moonshot', server.baseURL, { temperature: 0.2 }), settings({ model: 'kimi-k2.6' }), { dataDir: dir });
    expect(JSON.stringify(server.refusals[0]?.body)).toContain('invalid temperature: only 0.6 is allowed for this model');
    expect(r).toMatchObject({ ok: false, code: 'refused', refusal: { kind: 'bad-parameter', field: 'temperature' }, advice: { kind: 'extra-body', field: 'temperature' } });
    expect(providerCheckText('en', r)).toBe(
      'The provider refused “temperature”: “invalid temperature: only 0.6 is allowed for this model”. It is set in this provider’s extra_body: remove it there.',
    );
  });

  it('OpenAI gpt-5-mini set up as "other" → max_tokens refused, because of the provider type', async () => {
    const server = await strictServer('openai', { models: ['gpt-5-mini'] });
    const r = await verifyProvider(provider('other', server.baseURL), settings({ model: 'gpt-5-mini' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'refused', refusal: { kind: 'unknown-field', field: 'max_tokens' }, advice: { kind: 'provider-kind', field: 'max_tokens', currentLabel: 'Other (OpenAI-compatible)', suggestedLabel: null } });
    const en = providerCheckText('en', r);
    expect(en).toContain('The provider refused “max_tokens”: “Unsupported parameter: \'max_tokens\' is not supported with this model. Use \'max_completion_tokens\' instead.”');
    expect(en).toContain('Tingxie sent it because the provider type is “Other (OpenAI-compatible)”: choose the type of this server');
    expect(providerCheckText('zh', r)).toContain('听写发送它是因为服务商类型是“Other (OpenAI-compatible)”');
  });

  it('a model that answers the dictation instead of cleaning it → red (the guard), the answer shown', async () => {
    const server = await strictServer('openai', { models: ['gpt-4.1'], chat: () => ({ kind: 'text', content: 'Sure! I have added the meeting to your calendar for tomorrow at 3 PM.' }) });
    const r = await verifyProvider(provider('openai', server.baseURL), settings({ model: 'gpt-4.1' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'guarded', answer: 'Sure! I have added the meeting to your calendar for tomorrow at 3 PM.' });
    expect(providerCheckText('en', r)).toContain('The model answered something other than the cleaned text');
  });

  it('an empty answer is red', async () => {
    const server = await strictServer('openai', { models: ['gpt-4.1'], chat: () => ({ kind: 'text', content: '' }) });
    const r = await verifyProvider(provider('openai', server.baseURL), settings({ model: 'gpt-4.1' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'empty' });
  });

  it('no model chosen → says so, offering the provider’s list', async () => {
    const server = await strictServer('deepseek', { models: ['deepseek-v4-flash'] });
    const r = await verifyProvider(provider('deepseek', server.baseURL), settings({ model: '' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, advice: { kind: 'model', model: '', offered: ['deepseek-v4-flash'] } });
    expect(providerCheckText('en', r)).toBe('No model is chosen for this provider: choose one. This provider offers “deepseek-v4-flash”.');
  });
});

describe('adviceFor', () => {
  const listing = { state: 'no-list' } as const;
  it('a thinking field the model refuses → turn thinking on', () => {
    const a = adviceFor(provider('dashscope', 'http://127.0.0.1:1/v1'), { model: 'qwen-plus', thinking: false }, { kind: 'bad-parameter', field: 'enable_thinking', providerMessage: 'restricted to True' }, listing);
    expect(a).toEqual({ kind: 'thinking', field: 'enable_thinking', thinking: false });
  });
  it('the base URL of a known provider under another kind → that provider is suggested (a hint; requests never guess)', () => {
    const a = adviceFor(provider('other', 'https://api.groq.com/openai/v1'), { model: 'x', thinking: false }, { kind: 'unknown-field', field: 'max_tokens', providerMessage: '' }, listing);
    expect(a).toEqual({ kind: 'provider-kind', field: 'max_tokens', currentLabel: 'Other (OpenAI-compatible)', suggestedLabel: 'Groq' });
  });
  it('a dotted field names its top-level field; a field set to null in extra_body is not "from extra_body"', () => {
    const p = provider('mistral', 'http://127.0.0.1:1/v1', { stream_options: null });
    expect(adviceFor(p, { model: 'x', thinking: false }, { kind: 'unknown-field', field: 'stream_options.include_usage', providerMessage: '' }, listing)).toMatchObject({ kind: 'provider-kind', field: 'stream_options' });
  });
});

function listen(server: Server | NetServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe('verifyProvider: servers that fail before any answer', () => {
  it('401 → the key was refused, without the key even when the server echoes it', async () => {
    const server = createHttpServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization ?? ''}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    const port = await listen(server);
    cleanups.push(() => new Promise((r) => server.close(() => r())));
    const r = await verifyProvider(provider('openai', `http://127.0.0.1:${port}/v1`), settings({ model: 'gpt-4.1' }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'auth', refusal: { kind: 'auth' } });
    expect(providerCheckText('en', r)).toBe('The provider refused the API key: check the key in Settings › AI.');
    expect(leaks(r)).toBe(false);
  });

  it('an unreachable port → "cannot reach host:port"', async () => {
    const probe = createNetServer();
    const port = await listen(probe);
    await new Promise<void>((r) => probe.close(() => r()));
    const t = performance.now();
    const r = await verifyProvider(provider('openai', `http://127.0.0.1:${port}/v1`), settings({ model: 'gpt-4.1', timeoutMs: 2000, maxRetries: 2 }), { dataDir: dir });
    expect(r).toMatchObject({ ok: false, code: 'unreachable', host: `127.0.0.1:${port}` });
    expect(providerCheckText('en', r)).toBe(`Cannot reach 127.0.0.1:${port}: check the base URL and that the server is running.`);
    expect(performance.now() - t).toBeLessThan(2500);
  });

  it('a server that never answers → a timeout at the dictation’s deadline', async () => {
    const sockets = new Set<Socket>();
    const server = createNetServer((s) => sockets.add(s));
    const port = await listen(server);
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    });
    const t = performance.now();
    const r = await verifyProvider(provider('openai', `http://127.0.0.1:${port}/v1`), settings({ model: 'gpt-4.1', timeoutMs: 400, connectTimeoutMs: 400 }), { dataDir: dir });
    const elapsed = performance.now() - t;
    expect(r).toMatchObject({ ok: false, code: 'timeout', timeoutSeconds: 0.4 });
    expect(providerCheckText('en', r)).toMatch(/^No answer within 0\.4 s, the time a dictation waits/);
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(1500);
  });
});

describe('listModels', () => {
  it('lists, says when there is no list, and never leaks the key', async () => {
    const listed = await strictServer('openai', { models: ['a', 'b'] });
    expect(await listModels(provider('openai', listed.baseURL))).toEqual({ state: 'listed', models: ['a', 'b'] });
    const none = await strictServer('zhipu', { models: null });
    expect(await listModels(provider('zhipu', none.baseURL))).toEqual({ state: 'no-list' });
  });
});
