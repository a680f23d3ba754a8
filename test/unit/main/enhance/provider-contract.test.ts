import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Enhancer } from '../../../../src/main/enhance/enhancer.ts';
import { streamChat, type ChatOutcome, type LlmProvider } from '../../../../src/main/enhance/llm-client.ts';
import type { ProviderKind } from '../../../../src/shared/provider-kinds.ts';
import { startOpenAiTestServer, type ChatUsage, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { testSettings } from './enhance-fixture.ts';

/**
 * The provider contract: for every profile and representative models of each family, Tingxie's real
 * request (built by the enhancer from the profile) goes through its real LLM client (the `openai` SDK, streaming)
 * to a server that answers the way that provider does (test/helpers/strict-providers.ts). The request must be
 * accepted with thinking off and on, thinking must really be off when off, and usage and cached tokens must be
 * read back whatever shape and place the provider reports them in.
 */

interface Case {
  readonly kind: ProviderKind;
  readonly model: string;
  /** Whether the model still reasons visibly with thinking off (models that cannot be switched off). */
  readonly thinksOff: boolean;
  /** Whether it reasons visibly with thinking on (false where the provider never streams reasoning). */
  readonly thinksOn: boolean;
  /** Whether the third request with a long shared prefix reports cached tokens. */
  readonly caches: boolean;
}

const CASES: readonly Case[] = [
  { kind: 'openai', model: 'gpt-4.1', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'openai', model: 'gpt-5-mini', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'openai', model: 'gpt-5.1', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'openai', model: 'gpt-5-chat-latest', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'openai', model: 'o4-mini', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'azure-openai', model: 'gpt-5-mini', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'azure-openai', model: 'gpt-4.1-mini', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'deepseek', model: 'deepseek-v4-flash', thinksOff: false, thinksOn: true, caches: true },
  { kind: 'dashscope', model: 'qwen-plus', thinksOff: false, thinksOn: true, caches: true },
  { kind: 'dashscope', model: 'qwen3-235b-a22b-thinking-2507', thinksOff: true, thinksOn: true, caches: true },
  { kind: 'moonshot', model: 'kimi-k2.6', thinksOff: false, thinksOn: true, caches: true },
  { kind: 'moonshot', model: 'moonshot-v1-32k', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'zhipu', model: 'glm-4.7', thinksOff: false, thinksOn: true, caches: true },
  { kind: 'siliconflow', model: 'Qwen/Qwen3-8B', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'siliconflow', model: 'Qwen/Qwen2.5-7B-Instruct', thinksOff: false, thinksOn: false, caches: false },
  { kind: 'volcengine-ark', model: 'doubao-seed-1-6-flash-250828', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'groq', model: 'llama-3.3-70b-versatile', thinksOff: false, thinksOn: false, caches: false },
  { kind: 'groq', model: 'openai/gpt-oss-20b', thinksOff: true, thinksOn: true, caches: true },
  { kind: 'groq', model: 'qwen/qwen3-32b', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'cerebras', model: 'gpt-oss-120b', thinksOff: true, thinksOn: true, caches: false },
  { kind: 'cerebras', model: 'zai-glm-4.7', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'mistral', model: 'mistral-small-latest', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'mistral', model: 'mistral-large-latest', thinksOff: false, thinksOn: false, caches: false },
  { kind: 'gemini', model: 'gemini-2.5-flash', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'gemini', model: 'gemini-2.5-pro', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'openrouter', model: 'deepseek/deepseek-r1', thinksOff: true, thinksOn: true, caches: true },
  { kind: 'openrouter', model: 'openai/gpt-4o-mini', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'local', model: 'qwen2.5-1.5b-instruct-q4_k_m.gguf', thinksOff: false, thinksOn: false, caches: true },
  { kind: 'ollama', model: 'qwen3:8b', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'ollama', model: 'qwen2.5:7b', thinksOff: false, thinksOn: false, caches: false },
  { kind: 'lmstudio', model: 'qwen3-8b', thinksOff: true, thinksOn: true, caches: false }, // no documented off switch
  { kind: 'vllm', model: 'Qwen/Qwen3-8B', thinksOff: false, thinksOn: true, caches: false },
  { kind: 'llamacpp', model: 'qwen3-8b', thinksOff: false, thinksOn: true, caches: true },
  { kind: 'other', model: 'test-model', thinksOff: false, thinksOn: false, caches: true },
];

// A shared prefix long enough for every provider's cache minimum (Gemini Pro: 4096 tokens).
const NOTE = 'Glossary for this user: Tingxie is a dictation app; WenZi is its predecessor; keep product names as written. '.repeat(260);
const TEXTS = ['今天下午三点开会', 'please send the report by friday', '明天记得带上合同'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-contract-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Cached tokens in whichever field the provider's shape uses. */
function reportedCached(u: ChatUsage | undefined): number {
  return u?.prompt_tokens_details?.cached_tokens ?? u?.prompt_cache_hit_tokens ?? u?.cached_tokens ?? 0;
}

async function runCase(c: Case, thinking: boolean): Promise<{ server: OpenAiTestServer; outs: ChatOutcome[] }> {
  const server = await startOpenAiTestServer({ strict: c.kind });
  const provider: LlmProvider = { id: 'p', kind: c.kind, baseURL: server.baseURL, apiKey: 'sk-contract-test-key-0123456789' };
  const enhancer = await Enhancer.open(
    { dataDir: dir, provider: () => provider },
    testSettings({ model: c.model, thinking, contextNote: NOTE, contextWindow: 200_000, history: { enabled: false, maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 6000 }, vocabulary: { enabled: false, maxLlmEntries: 0 } }),
  );
  const outs: ChatOutcome[] = [];
  try {
    for (const text of TEXTS) {
      const built = await enhancer.buildRequest(text);
      if (!built) throw new Error('no request built');
      outs.push(await streamChat({ provider, body: built.request.body, deadlineAt: Date.now() + 10_000, connectTimeoutMs: 10_000, maxRetries: 0 }));
    }
  } finally {
    enhancer.close();
    await server.close();
  }
  return { server, outs };
}

describe('provider contract: the real request, the real client, a server as strict as the provider', () => {
  it('covers every provider kind', async () => {
    const { PROVIDER_KINDS } = await import('../../../../src/shared/provider-kinds.ts');
    expect(new Set(CASES.map((c) => c.kind))).toEqual(new Set(PROVIDER_KINDS));
  });

  for (const c of CASES) {
    for (const thinking of [false, true]) {
      it(`${c.kind} · ${c.model} · thinking ${thinking ? 'on' : 'off'}`, async () => {
        const { server, outs } = await runCase(c, thinking);
        // Accepted: no refusal, and the answer came back through the SDK stream.
        expect(server.refusals.map((r) => JSON.stringify(r.body))).toEqual([]);
        for (const [i, out] of outs.entries()) {
          expect(out.ok ? 'ok' : `${out.reason.code}: ${out.reason.message}`).toBe('ok');
          if (!out.ok) continue;
          expect(out.answer).toBe(TEXTS[i]);
          // The thinking switch took effect (or the model is one that cannot be switched off).
          expect(out.thinking !== '').toBe(thinking ? c.thinksOn : c.thinksOff);
          // Usage read back from the provider's own shape and place.
          const reported = server.usages[i];
          expect(out.usage).not.toBeNull();
          expect(out.usage?.prompt_tokens).toBe(reported?.prompt_tokens);
          expect(out.usage?.completion_tokens).toBe(reported?.completion_tokens);
          expect(out.usage?.cached_tokens).toBe(reportedCached(reported));
        }
        const last = outs.at(-1);
        const cached = last?.ok === true ? (last.usage?.cached_tokens ?? 0) : -1;
        if (c.caches) expect(cached).toBeGreaterThan(0);
        else expect(cached).toBe(0);
      });
    }
  }
});

/** A request as Tingxie built it before provider profiles, and what the provider does with it. */
interface OldRequest {
  readonly kind: ProviderKind;
  readonly model: string;
  readonly change: Readonly<Record<string, unknown>>;
  /** A refusal whose message contains this, or 'thinks' when it is accepted but the model keeps reasoning. */
  readonly outcome: string;
}

const OLD: readonly OldRequest[] = [
  { kind: 'openai', model: 'gpt-5-mini', change: { max_completion_tokens: null, max_tokens: 4096, temperature: 0.2 }, outcome: "'max_tokens' is not supported" },
  { kind: 'openai', model: 'o4-mini', change: { temperature: 0.2 }, outcome: "'temperature' does not support 0.2" },
  { kind: 'openai', model: 'gpt-5.1', change: { reasoning_effort: 'minimal' }, outcome: "does not support 'minimal'" },
  { kind: 'openai', model: 'gpt-5-chat-latest', change: { reasoning_effort: 'minimal' }, outcome: "'reasoning_effort' is not supported" },
  { kind: 'azure-openai', model: 'gpt-4.1-mini', change: { chat_template_kwargs: { enable_thinking: false } }, outcome: 'Unrecognized request argument supplied: chat_template_kwargs' },
  { kind: 'groq', model: 'llama-3.3-70b-versatile', change: { chat_template_kwargs: { enable_thinking: false } }, outcome: "property 'chat_template_kwargs' is unsupported" },
  { kind: 'cerebras', model: 'gpt-oss-120b', change: { chat_template_kwargs: { enable_thinking: false } }, outcome: "property 'chat_template_kwargs' is unsupported" },
  { kind: 'gemini', model: 'gemini-2.5-flash', change: { chat_template_kwargs: { enable_thinking: false } }, outcome: 'Unknown name "chat_template_kwargs"' },
  { kind: 'mistral', model: 'mistral-small-latest', change: { stream_options: { include_usage: true } }, outcome: 'extra_forbidden' },
  { kind: 'moonshot', model: 'kimi-k2.6', change: { temperature: 0.2 }, outcome: 'invalid temperature: only 0.6 is allowed' },
  { kind: 'openrouter', model: 'deepseek/deepseek-r1', change: { reasoning: { enabled: false, exclude: true } }, outcome: 'Reasoning is mandatory' },
  { kind: 'dashscope', model: 'qwen3-235b-a22b-thinking-2507', change: { enable_thinking: false }, outcome: 'restricted to True' },
  { kind: 'siliconflow', model: 'Qwen/Qwen2.5-7B-Instruct', change: { enable_thinking: false }, outcome: '20015' },
  { kind: 'ollama', model: 'qwen3:8b', change: { reasoning_effort: null, think: false }, outcome: 'thinks' },
  { kind: 'ollama', model: 'qwen2.5:7b', change: { reasoning_effort: 'medium' }, outcome: 'does not support thinking' },
  { kind: 'zhipu', model: 'glm-4.7', change: { thinking: null, chat_template_kwargs: { enable_thinking: false } }, outcome: 'thinks' },
  { kind: 'volcengine-ark', model: 'doubao-seed-1-6-flash-250828', change: { thinking: null, chat_template_kwargs: { enable_thinking: false } }, outcome: 'thinks' },
];

describe('provider contract: the strict servers refuse what the providers refuse', () => {
  it('deepseek: the retired model names are refused', async () => {
    const server = await startOpenAiTestServer({ strict: 'deepseek' });
    try {
      const provider: LlmProvider = { id: 'p', kind: 'deepseek', baseURL: server.baseURL, apiKey: undefined };
      const out = await streamChat({ provider, body: { model: 'deepseek-chat', messages: [{ role: 'user', content: 'hi' }], stream: true }, deadlineAt: Date.now() + 5000, connectTimeoutMs: 5000, maxRetries: 0 });
      expect(out.ok).toBe(false);
      expect(JSON.stringify(server.refusals[0]?.body)).toContain('The supported API model names are deepseek-v4-pro or deepseek-v4-flash');
    } finally {
      await server.close();
    }
  });

  for (const o of OLD) {
    it(`${o.kind} · ${o.model}: ${o.outcome === 'thinks' ? 'keeps thinking' : 'refuses'} the pre-profile request`, async () => {
      const server = await startOpenAiTestServer({ strict: o.kind });
      const provider: LlmProvider = { id: 'p', kind: o.kind, baseURL: server.baseURL, apiKey: undefined };
      const enhancer = await Enhancer.open({ dataDir: dir, provider: () => provider }, testSettings({ model: o.model }));
      try {
        const built = await enhancer.buildRequest(TEXTS[0] ?? '');
        const body: Record<string, unknown> = { ...built?.request.body };
        for (const [k, v] of Object.entries(o.change)) if (v === null) delete body[k]; else body[k] = v;
        const out = await streamChat({ provider, body, deadlineAt: Date.now() + 5000, connectTimeoutMs: 5000, maxRetries: 0 });
        if (o.outcome === 'thinks') expect(out.ok && out.thinking !== '').toBe(true);
        else {
          // The user sees a readable sentence (provider-error.ts); the provider's own words are in its error body.
          expect(out.ok).toBe(false);
          expect(JSON.stringify(server.refusals[0]?.body)).toContain(JSON.stringify(o.outcome).slice(1, -1));
        }
      } finally {
        enhancer.close();
        await server.close();
      }
    });
  }
});
