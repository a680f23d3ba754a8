import type { LlmProvider } from './llm-client.ts';
import type { WarmOutcome } from './local-llm/local-bridge.ts';
import type { BuiltRequest } from './request-builder.ts';
import { usageFromChunk } from './usage.ts';

/*
 * The key-down warm-up for servers the user runs (and, opted in, cloud providers): while the user speaks,
 * one request whose prompt is the stable prefix of the coming request (the system message up to the part
 * that depends on the input) and whose answer is one token, so the server evaluates the prefix (and loads a
 * model that went idle) now instead of after key-up. Every OpenAI-compatible chat endpoint takes it as is:
 * - Ollama: a request loads the model and restarts its keep_alive timer (default 5 minutes; the user's own
 *   keep_alive/OLLAMA_KEEP_ALIVE is left alone) and its runner keeps the prompt's KV cache for the next
 *   request with the same prefix; `max_tokens` maps to num_predict.
 *   https://github.com/ollama/ollama/blob/main/docs/api.md#load-a-model, docs/faq.md "How do I keep a model
 *   loaded in memory", docs/openai.md (supported request fields).
 * - llama.cpp server: `cache_prompt` is on by default, so the slot keeps the evaluated prompt and the next
 *   request reuses its longest common prefix (tools/server/README.md, POST /completion `cache_prompt`).
 * - vLLM: automatic prefix caching keeps the prefix's blocks (docs.vllm.ai, "Automatic Prefix Caching").
 * - LM Studio: it reuses the loaded model's cache for a common prefix (https://lmstudio.ai/docs/developer/openai-compat).
 * - Cloud providers with automatic caching (OpenAI from 1,024 tokens, DeepSeek on disk…) cache the prefix
 *   too, but the request costs money: only with `ai_enhance.warm_up: all`.
 */

/** Kinds that are servers on the user's machine or network (no per-request cost). */
const LOCAL_SERVER_KINDS: ReadonlySet<string> = new Set(['ollama', 'lmstudio', 'vllm', 'llamacpp']);

/** How long a warm-up may run; it is never waited for by a dictation. */
const WARM_TIMEOUT_MS = 60_000;

/**
 * True for a provider the key-down warm-up applies to without opting in: a local server whose prefix caching is
 * documented (above). An `other` server, even on loopback, may not cache at all: it needs `warm_up: all`.
 */
export function isLocalServer(provider: LlmProvider): boolean {
  return provider.kind !== undefined && LOCAL_SERVER_KINDS.has(provider.kind);
}

/** The warm-up body: the built body with the prefix as the only message and a one-token answer, not streamed. */
export function warmUpBody(built: BuiltRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { ...built.body, messages: [{ role: 'system', content: built.stablePrefix }], stream: false };
  delete body.stream_options;
  if ('max_completion_tokens' in body) body.max_completion_tokens = 1;
  else body.max_tokens = 1;
  return body;
}

/** Sends the warm-up; null when it does not apply (cloud without opt-in, nothing stable to warm) or failed. */
export async function warmServer(provider: LlmProvider, built: BuiltRequest, o: { cloud: boolean; connectTimeoutMs: number; mode: string }): Promise<WarmOutcome | null> {
  if (built.stablePrefix === '' || (!o.cloud && !isLocalServer(provider))) return null;
  const t0 = performance.now();
  try {
    const res = await fetch(`${provider.baseURL.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}) },
      body: JSON.stringify(warmUpBody(built)),
      signal: AbortSignal.timeout(WARM_TIMEOUT_MS),
    });
    if (!res.ok) return null;
    const json = (await res.json()) as Record<string, unknown>;
    const usage = usageFromChunk(json);
    return { mode: o.mode, tokens: usage?.prompt_tokens ?? 0, reused: usage?.cached_tokens ?? 0, ms: performance.now() - t0 };
  } catch {
    return null;
  }
}
