/**
 * Wire shapes of the `providers:*` channels (Settings › AI): the provider presets, a provider's model list,
 * Verify's result and the prompt-cache report. Plain data; the words are made in the window's language
 * (src/shared/notices/provider-check-text.ts).
 */
import type { ProviderKind } from '../provider-kinds.ts';
import type { ProviderRefusal } from '../notices/notice.ts';

/** A provider's prompt-cache rule, from its profile (src/main/enhance/providers/). */
export interface CacheRuleInfo {
  /** auto: plain requests are cached and reported; none: not cached or not reported; upstream: the routed provider's rule. */
  readonly mode: 'auto' | 'none' | 'upstream' | 'unknown';
  /** Shortest prefix (tokens) that can be a hit; 0 = no minimum stated. */
  readonly minTokens: number;
  /** Hits are counted in steps of this many tokens (1 = any length). */
  readonly stepTokens: number;
  /** The rule in the provider's words (English, from its documentation). */
  readonly note: string;
}

/** One provider preset: what "Add provider" fills in for a kind. */
export interface ProviderPreset {
  readonly kind: ProviderKind;
  readonly label: string;
  readonly defaultBaseURL: string;
  /** Current model ids from the profile, recommended first (empty: whatever the server has loaded). */
  readonly models: readonly string[];
  /** The provider's documentation the profile cites (first: the main page). */
  readonly docs: readonly string[];
  /** The cache rule for the recommended model. */
  readonly cache: CacheRuleInfo;
}

/** A provider's own model list (`GET /models`). */
export interface ProviderModelList {
  /** listed: the provider answered with its list; no-list: it has none (404/405/501); failed: it could not be asked. */
  readonly state: 'listed' | 'no-list' | 'failed';
  readonly models: readonly string[];
  /** Why the list could not be read (English, for the tooltip/log), or null. */
  readonly problem: string | null;
}

/** What to change, when Verify can tell more than the provider's refusal says. */
export type VerifyAdvice =
  /** The refused field (or value) comes from the provider's extra_body. */
  | { readonly kind: 'extra-body'; readonly field: string; readonly providerKind: ProviderKind; readonly suggestedLabel: string | null }
  /** Tingxie sent the refused field because of the provider type: the type does not match the server. */
  | { readonly kind: 'provider-kind'; readonly field: string; readonly currentLabel: string; readonly suggestedLabel: string | null }
  /** The model refuses the thinking state asked for (`thinking`: what was asked). */
  | { readonly kind: 'thinking'; readonly field: string; readonly thinking: boolean }
  /** The model name was refused; `offered`: models the provider lists (or the profile's current names). */
  | { readonly kind: 'model'; readonly model: string; readonly offered: readonly string[] };

/** Verify's verdict. */
export type ProviderCheckCode =
  | 'ok' | 'refused' | 'auth' | 'timeout' | 'unreachable' | 'server' | 'truncated' | 'empty' | 'guarded' | 'too-long' | 'failed';

/** What `providers:verify` found: the result of sending a real dictation's request to the provider. */
export interface ProviderCheckResult {
  /** True only when a cleaned text came back and passed the guard. */
  readonly ok: boolean;
  readonly code: ProviderCheckCode;
  /** The model the request named. */
  readonly model: string;
  /** The test sentence sent as the dictation. */
  readonly sample: string;
  /** The model's cleaned text (ok), or the answer the guard refused (guarded); null otherwise. */
  readonly answer: string | null;
  /** The provider's model list (empty when it has none or it could not be read). */
  readonly models: readonly string[];
  /** Whether the model is in that list: null when the provider lists no models. */
  readonly listed: boolean | null;
  /** What the provider refused, read from its error body. */
  readonly refusal: ProviderRefusal | null;
  readonly advice: VerifyAdvice | null;
  /** The deadline a dictation has (seconds), for the timeout sentence. */
  readonly timeoutSeconds: number;
  readonly elapsedMs: number;
  /** Host and port of the base URL (for "cannot reach …"). */
  readonly host: string;
  /** The outcome in English, for the log (never contains the key). */
  readonly message: string;
}

/** Whether the default provider's prompt is long enough for its cache (Settings › AI, near history injection). */
export interface PromptCacheReport {
  readonly providerId: string;
  readonly providerLabel: string;
  readonly model: string;
  /** The system prompt of a dictation now (mode prompt, history, vocabulary, note), in tokens. */
  readonly promptTokens: number;
  /** exact: the model's own tokenizer; estimate: Tingxie's estimate for other models. */
  readonly tokenMethod: 'exact' | 'estimate';
  readonly cache: CacheRuleInfo;
  /** caches: long enough; below-minimum: shorter than the minimum; not-reported: the provider reports no cache; unknown: no rule known. */
  readonly verdict: 'caches' | 'below-minimum' | 'not-reported' | 'unknown';
  readonly historyEnabled: boolean;
  readonly maxEntries: number;
  /** Average tokens of one injected history entry (measured on the current history, or a typical value). */
  readonly tokensPerEntry: number;
  /** When below the minimum: `max_entries` that would reach it (low: at the measured entry length; high: with a margin). */
  readonly suggestedEntries: { readonly low: number; readonly high: number } | null;
  /** When the suggested entries would not fit `max_history_chars`: the characters they need; else null. */
  readonly suggestedHistoryChars: number | null;
  /** The token budget of a dictation now (null if the prompt could not be built). */
  readonly budget: PromptBudget | null;
}

/** The token budget of one request (seed 002): each part of the prompt, the window, what remains, what was dropped. */
export interface PromptBudget {
  readonly method: 'exact' | 'estimate';
  /** The tokenizer that counted ('estimate' for models without a known one). */
  readonly tokenizer: string;
  readonly window: number;
  /** config, ollama-num-ctx, ollama-loaded, ollama-default, model-list, profile or table. */
  readonly windowSource: string;
  readonly systemTokens: number;
  readonly historyTokens: number;
  readonly vocabularyTokens: number;
  readonly tailTokens: number;
  readonly inputTokens: number;
  readonly promptTokens: number;
  readonly maxOutputTokens: number;
  /** The count max_tokens was derived from and how it was made: exact, a byte upper bound, or an estimate. */
  readonly requestCount?: { readonly tokens: number; readonly method: 'exact' | 'bound' | 'estimate' };
  readonly remaining: number;
  readonly historyLines: number;
  readonly dropped: { readonly historyLines: number; readonly retrieved: number; readonly vocabularyPairs: number };
}
