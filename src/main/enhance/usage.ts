/**
 * Token usage read back from a streamed chat chunk, in every shape the providers document:
 * - OpenAI and most others: `chunk.usage` (with stream_options.include_usage), cached tokens in
 *   `usage.prompt_tokens_details.cached_tokens` (https://platform.openai.com/docs/guides/prompt-caching);
 * - DeepSeek: `usage.prompt_cache_hit_tokens` (https://api-docs.deepseek.com/guides/kv_cache);
 * - Moonshot/Kimi: usage inside `choices[0].usage`, cached tokens as `usage.cached_tokens`
 *   (github.com/earendil-works/pi/issues/2017, github.com/higress-group/higress/pull/1568);
 * - Groq without stream_options: `x_groq.usage` on the last chunk (https://console.groq.com/docs/openai).
 * Reading every shape (rather than the one the profile names) keeps stats right behind gateways that re-shape usage.
 */

/** Token usage of one call. */
export interface CallUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cached_tokens: number;
}

interface RawUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  readonly prompt_tokens_details?: { readonly cached_tokens?: unknown } | null;
  readonly prompt_cache_hit_tokens?: unknown;
  readonly cached_tokens?: unknown;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Usage from one usage object in any documented shape, or null when it holds no token counts. */
export function readUsage(u: unknown): CallUsage | null {
  if (!isObject(u)) return null;
  const r = u as RawUsage;
  const prompt = num(r.prompt_tokens);
  const completion = num(r.completion_tokens);
  if (prompt === undefined && completion === undefined) return null;
  const details = isObject(r.prompt_tokens_details) ? num(r.prompt_tokens_details.cached_tokens) : undefined;
  return {
    prompt_tokens: prompt ?? 0,
    completion_tokens: completion ?? 0,
    // Some providers send a placeholder 0 in one field and the real count in another: the largest one counts.
    cached_tokens: Math.max(details ?? 0, num(r.prompt_cache_hit_tokens) ?? 0, num(r.cached_tokens) ?? 0),
  };
}

/** Usage carried by a stream chunk (top level, inside the first choice, or Groq's x_groq), or null. */
export function usageFromChunk(chunk: unknown): CallUsage | null {
  if (!isObject(chunk)) return null;
  const top = readUsage(chunk.usage);
  if (top) return top;
  const choices = chunk.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const inChoice = isObject(first) ? readUsage(first.usage) : null;
  if (inChoice) return inChoice;
  return isObject(chunk.x_groq) ? readUsage(chunk.x_groq.usage) : null;
}
