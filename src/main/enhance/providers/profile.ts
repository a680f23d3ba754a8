import type { ProviderKind } from '../../../shared/provider-kinds.ts';

/**
 * The shape of a provider profile: what one provider's documentation says about the chat request Tingxie
 * sends. Request code asks the profile chosen by the config's `kind`; nothing here looks at the base URL
 * (the one-time config migration recognises a kind by its URL: src/shared/providers/recognise-kind.ts).
 */

/** Top-level fields every OpenAI-compatible chat endpoint takes: the "core" request. */
export const CORE_FIELDS: readonly string[] = ['model', 'messages', 'stream', 'stream_options', 'max_tokens', 'temperature'];

/** How one model takes the per-request knobs. */
export interface ModelRules {
  /** The output-token limit field the model accepts. */
  readonly tokenField: 'max_tokens' | 'max_completion_tokens';
  /** 'free': Tingxie's own temperature is fine; 'omit': the model refuses a custom one; a number: the only value allowed. */
  readonly temperature: 'free' | 'omit' | number;
  /** Fields that put thinking in the wanted state; empty when there is nothing (safe) to send. */
  readonly thinking: Readonly<Record<string, unknown>>;
}

/** Where a stream reports usage, and which field holds the cached prompt tokens (null: never reported). */
export interface UsageReport {
  readonly where: 'chunk.usage' | 'choices[0].usage';
  readonly cached: 'prompt_tokens_details.cached_tokens' | 'prompt_cache_hit_tokens' | 'usage.cached_tokens' | null;
}

/** A provider's prompt-cache rule for one model. */
export interface CacheRule {
  /** auto: plain requests are cached and reported; none: not cached or not reported; upstream: the routed provider's rule. */
  readonly mode: 'auto' | 'none' | 'upstream' | 'unknown';
  /** Shortest prefix (tokens) that can be a hit; 0 = no minimum stated. */
  readonly minTokens: number;
  /** Hits are counted in steps of this many tokens (1 = any length). */
  readonly stepTokens: number;
  /** The rule in the provider's words, for the budget report. */
  readonly note: string;
}

/** One provider, from its documentation. */
export interface ProviderProfile {
  readonly kind: ProviderKind;
  readonly label: string;
  /** The pages the rules come from. */
  readonly docs: readonly string[];
  readonly defaultBaseURL: string;
  /** Top-level request fields the provider documents and Tingxie may send (core ones included). */
  readonly fields: readonly string[];
  /** Current model ids, recommended first (empty: whatever the server has loaded). */
  readonly models: readonly string[];
  readonly usage: UsageReport;
  /** Token field, temperature and thinking switch for a model, thinking on or off. */
  rules(model: string, thinking: boolean): ModelRules;
  cache(model: string): CacheRule;
  /** Context window (input + output tokens), or undefined when the documentation gives none for this model. */
  contextWindow(model: string): number | undefined;
}

/** The usual rules: `max_tokens`, any temperature, the given thinking fields. */
export function plainRules(thinking: Readonly<Record<string, unknown>> = {}): ModelRules {
  return { tokenField: 'max_tokens', temperature: 'free', thinking };
}

/** OpenAI's usage shape, which most providers copy. */
export const OPENAI_USAGE: UsageReport = { where: 'chunk.usage', cached: 'prompt_tokens_details.cached_tokens' };

/** Usage without any cached-token field. */
export const PLAIN_USAGE: UsageReport = { where: 'chunk.usage', cached: null };

/** A cache rule constant. */
export function cacheRule(mode: CacheRule['mode'], minTokens: number, stepTokens: number, note: string): CacheRule {
  return { mode, minTokens, stepTokens, note };
}

/** The model id without a vendor prefix ("Qwen/Qwen3-8B" → "qwen3-8b", "openai/gpt-oss-20b" → "gpt-oss-20b"), lower case. */
export function bareModel(model: string): string {
  const m = model.trim().toLowerCase();
  const i = m.lastIndexOf('/');
  return i === -1 ? m : m.slice(i + 1);
}

/** First matching window of a table of [pattern, tokens] rows. */
export function windowFrom(table: readonly (readonly [RegExp, number])[], model: string): number | undefined {
  const m = model.toLowerCase();
  return table.find(([re]) => re.test(m))?.[1];
}
