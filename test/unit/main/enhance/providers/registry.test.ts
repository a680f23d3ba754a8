import { describe, expect, it } from 'vitest';
import { PROFILES, profileFor } from '../../../../../src/main/enhance/providers/registry.ts';
import { recogniseKind } from '../../../../../src/shared/providers/recognise-kind.ts';
import { buildRequestBody } from '../../../../../src/main/enhance/providers/request-body.ts';
import { PROVIDER_KINDS } from '../../../../../src/shared/provider-kinds.ts';

/** Invariants every profile keeps, the one-time URL recognition, and the body the profiles build. */

const messages = [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] as const;

describe('provider profiles', () => {
  it('one profile per kind, each citing its documentation, with a usable default base URL', () => {
    for (const kind of PROVIDER_KINDS) {
      const p = PROFILES[kind];
      expect(p.kind).toBe(kind);
      expect(p.docs.length).toBeGreaterThan(0);
      for (const d of p.docs) expect(d).toMatch(/^https:\/\//);
      expect(() => new URL(p.defaultBaseURL)).not.toThrow();
      expect(p.fields).toEqual(expect.arrayContaining(['model', 'messages', 'stream']));
      // 'other' is the fallback and the built-in engine ('local') has no server: no URL names either.
      if (kind !== 'other' && kind !== 'local') expect(recogniseKind(p.defaultBaseURL)).toBe(kind);
    }
    expect(profileFor(undefined).kind).toBe('other');
  });

  it('never builds a field its own profile does not list, for any listed model, thinking off or on', () => {
    const extraModels = ['gpt-5.1', 'gpt-5-chat-latest', 'o3', 'qwen3-235b-a22b-thinking-2507', 'kimi-k2-thinking', 'gemini-2.5-pro', 'gemini-2.0-flash', 'ep-20250101-abcde', 'unknown-model'];
    for (const p of Object.values(PROFILES)) {
      for (const model of [...p.models, ...extraModels]) {
        for (const thinking of [false, true]) {
          const r = p.rules(model, thinking);
          expect(p.fields, `${p.kind} ${model}`).toContain(r.tokenField);
          for (const k of Object.keys(r.thinking)) expect(p.fields, `${p.kind} ${model} ${k}`).toContain(k);
          const body = buildRequestBody(p, { model, messages, maxTokens: 100, thinking });
          for (const k of Object.keys(body)) expect(p.fields, `${p.kind} ${model} body ${k}`).toContain(k);
        }
      }
    }
  });

  it('recognises a base URL once, for the migration: provider hosts, then the local servers’ default ports, else other', () => {
    const cases: [string, string][] = [
      ['https://api.openai.com/v1', 'openai'],
      ['https://my-res.openai.azure.com/openai/v1', 'azure-openai'],
      ['https://api.deepseek.com', 'deepseek'],
      ['https://dashscope-intl.aliyuncs.com/compatible-mode/v1', 'dashscope'],
      ['https://api.moonshot.ai/v1', 'moonshot'],
      ['https://api.z.ai/api/paas/v4', 'zhipu'],
      ['https://api.siliconflow.com/v1', 'siliconflow'],
      ['https://ark.ap-southeast.bytepluses.com/api/v3', 'volcengine-ark'],
      ['https://api.groq.com/openai/v1', 'groq'],
      ['https://api.cerebras.ai/v1', 'cerebras'],
      ['https://api.mistral.ai/v1', 'mistral'],
      ['https://generativelanguage.googleapis.com/v1beta/openai/', 'gemini'],
      ['https://openrouter.ai/api/v1', 'openrouter'],
      ['http://192.168.1.20:11434/v1', 'ollama'],
      ['http://localhost:1234/v1', 'lmstudio'],
      ['http://gpu-box:8000/v1', 'vllm'],
      ['http://127.0.0.1:8080/v1', 'llamacpp'],
      // A gateway in front of OpenAI is not OpenAI's API as far as its URL can tell: the user picks the kind.
      ['https://gateway.example.com/openai/v1', 'other'],
      ['https://evil.example.com/api.openai.com/v1', 'other'],
      ['not a url', 'other'],
    ];
    for (const [url, kind] of cases) expect(recogniseKind(url), url).toBe(kind);
  });
});

describe('request body from a profile', () => {
  it('keeps the cache-friendly key order and adds the user’s extra_body last, null removing a field', () => {
    const body = buildRequestBody(profileFor('vllm'), { model: 'Qwen/Qwen3-8B', messages, maxTokens: 300, thinking: false, extraBody: { chat_template_kwargs: null, top_k: 20, temperature: 0.7 } });
    expect(Object.keys(body).slice(0, 2)).toEqual(['model', 'messages']);
    expect(body).not.toHaveProperty('chat_template_kwargs');
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 300, temperature: 0.7, top_k: 20 });
    expect(JSON.stringify(body)).not.toContain('null');
  });

  it('sends no stream_options where the provider refuses it or does not document it', () => {
    expect(buildRequestBody(profileFor('mistral'), { model: 'mistral-small-latest', messages, maxTokens: 10, thinking: false })).not.toHaveProperty('stream_options');
    expect(buildRequestBody(profileFor('zhipu'), { model: 'glm-4.7', messages, maxTokens: 10, thinking: false })).not.toHaveProperty('stream_options');
  });

  it('"other" sends only the core OpenAI fields', () => {
    const body = buildRequestBody(profileFor('other'), { model: 'qwen3:8b', messages, maxTokens: 10, thinking: true });
    expect(Object.keys(body)).toEqual(['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature']);
  });
});

describe('model rules', () => {
  it('OpenAI: max_completion_tokens everywhere; no temperature and the lowest accepted effort on reasoning models', () => {
    const off = (m: string): unknown => { const r = profileFor('openai').rules(m, false); return [r.tokenField, r.temperature, r.thinking]; };
    expect(off('gpt-4.1')).toEqual(['max_completion_tokens', 'free', {}]);
    expect(off('gpt-5-mini')).toEqual(['max_completion_tokens', 'omit', { reasoning_effort: 'minimal' }]);
    expect(off('gpt-5.1')).toEqual(['max_completion_tokens', 'omit', { reasoning_effort: 'none' }]);
    expect(off('gpt-5-chat-latest')).toEqual(['max_completion_tokens', 'omit', {}]);
    expect(off('o4-mini')).toEqual(['max_completion_tokens', 'omit', { reasoning_effort: 'low' }]);
    expect(profileFor('openai').rules('gpt-5.1', true).thinking).toEqual({ reasoning_effort: 'medium' });
  });

  it('Kimi K2.5/K2.6: the only temperature each mode allows, with the thinking switch', () => {
    expect(profileFor('moonshot').rules('kimi-k2.6', false)).toMatchObject({ temperature: 0.6, thinking: { thinking: { type: 'disabled' } } });
    expect(profileFor('moonshot').rules('kimi-k2.5', true)).toMatchObject({ temperature: 1, thinking: { thinking: { type: 'enabled' } } });
    expect(profileFor('moonshot').rules('moonshot-v1-8k', false)).toMatchObject({ temperature: 'free', thinking: {} });
  });

  it('no switch where sending one is refused: DashScope thinking-only, OpenRouter off, Ollama on for a model that cannot think', () => {
    expect(profileFor('dashscope').rules('qwen3-235b-a22b-thinking-2507', false).thinking).toEqual({});
    expect(profileFor('dashscope').rules('qwq-plus', false).thinking).toEqual({});
    expect(profileFor('openrouter').rules('deepseek/deepseek-r1', false).thinking).toEqual({});
    expect(profileFor('openrouter').rules('deepseek/deepseek-r1', true).thinking).toEqual({ reasoning: { enabled: true } });
    expect(profileFor('ollama').rules('qwen2.5:7b', true).thinking).toEqual({});
    expect(profileFor('ollama').rules('qwen2.5:7b', false).thinking).toEqual({ reasoning_effort: 'none' });
    expect(profileFor('siliconflow').rules('Qwen/Qwen2.5-7B-Instruct', false).thinking).toEqual({});
  });

  it('context windows where the documentation gives them (DeepSeek V4: 1M, not the old 65k)', () => {
    expect(profileFor('deepseek').contextWindow('deepseek-v4-flash')).toBe(1_000_000);
    expect(profileFor('openai').contextWindow('gpt-4.1-mini')).toBe(1_047_576);
    expect(profileFor('gemini').contextWindow('gemini-2.5-flash')).toBe(1_048_576);
    expect(profileFor('ollama').contextWindow('qwen3:8b')).toBe(4096); // the server's default num_ctx until /api/show answers (context-window.ts)
  });

  it('cache rules per provider: OpenAI 1024 + 128-token blocks, DeepSeek units without a minimum, Kimi 256-token chunks', () => {
    expect(profileFor('openai').cache('gpt-4.1')).toMatchObject({ mode: 'auto', minTokens: 1024, stepTokens: 128 });
    expect(profileFor('deepseek').cache('deepseek-v4-flash')).toMatchObject({ mode: 'auto', minTokens: 0 });
    expect(profileFor('moonshot').cache('kimi-k2.6')).toMatchObject({ mode: 'auto', stepTokens: 256 });
    expect(profileFor('gemini').cache('gemini-2.5-pro').minTokens).toBe(4096);
    expect(profileFor('ollama').cache('qwen3:8b').mode).toBe('none');
  });
});
