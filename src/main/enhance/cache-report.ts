import type { PromptCacheReport } from '../../shared/ipc/provider-types.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import type { PromptLanguage } from './builtin-modes.ts';
import { Enhancer, providerFromConfig, settingsFromConfig, type EnhancerSettings } from './enhancer.ts';
import type { RecentHistorySource } from './history-builder.ts';
import { profileFor } from './providers/registry.ts';
import { contextWindowLookup, type ContextWindowLookup } from './context-window.ts';
import { MESSAGE_OVERHEAD_TOKENS, tokenCounterFor } from './token-count.ts';
import { VERIFY_SAMPLES } from './verify-provider.ts';
import type { VocabularyStore } from './vocabulary-store.ts';

/**
 * Settings' prompt-cache report: how long a dictation's system prompt is now with the default provider's model
 * (mode prompt, history lines after a rebuild, vocabulary, note — built by the real request builder over the
 * user's own history), and what the provider's cache rule (its profile) makes of it. Where the prompt is below
 * the provider's minimum it says so, and how many history entries would reach it, instead of promising savings.
 */

/** Tokens of one history entry when there is no history yet to measure (short zh/en dictations: ~17–25 o200k tokens). */
export const TYPICAL_ENTRY_TOKENS = 20;
const TYPICAL_ENTRY_CHARS = 30;
/** How many recent entries are read to measure the user's typical entry. */
const MEASURE_ENTRIES = 40;

/** What the report reads besides the config. */
export interface CacheReportDeps {
  readonly dataDir: string;
  readonly history?: RecentHistorySource | null;
  readonly vocabulary?: VocabularyStore | null;
  /** The provider window lookup (the app's shared one when absent). */
  readonly contextWindows?: ContextWindowLookup | null;
}

/** The report for the default provider and model. */
export async function promptCacheReport(config: Config, lang: PromptLanguage, deps: CacheReportDeps): Promise<PromptCacheReport> {
  const a = config.ai_enhance;
  const providerId = a.default_provider;
  const provider = providerFromConfig(config, null, providerId);
  const profile = profileFor(provider?.kind);
  const settings = settingsFromConfig(config, lang);
  const enhancer = await Enhancer.open({ dataDir: deps.dataDir, history: deps.history ?? null, vocabulary: deps.vocabulary ?? null, provider: () => provider, contextWindows: deps.contextWindows ?? contextWindowLookup }, settings);
  const sample = VERIFY_SAMPLES[lang];
  // The budget of a dictation of the sample text now (every part counted; loads the model's tokenizer if needed).
  const b = await enhancer.budgetReport(sample);
  const counter = tokenCounterFor(settings.model);
  /** System prompt of the first step under these settings: tokens, characters, history lines. */
  const measure = async (s: EnhancerSettings): Promise<{ tokens: number; chars: number; lines: number }> => {
    enhancer.updateSettings(s);
    const built = await enhancer.buildRequest(sample);
    const system = built?.request.messages[0]?.content ?? '';
    return { tokens: counter.count(system) + MESSAGE_OVERHEAD_TOKENS, chars: system.length, lines: built?.request.historyLines ?? 0 };
  };
  try {
    const now = await measure(settings);
    const bare = await measure({ ...settings, history: { ...settings.history, enabled: false } });
    const n = Math.max(MEASURE_ENTRIES, settings.history.maxEntries);
    const sampled = await measure({ ...settings, history: { enabled: true, maxEntries: n, refreshThreshold: n * 5, maxHistoryChars: 1_000_000 } });
    const perEntry = sampled.lines > 0 ? Math.max(1, (sampled.tokens - bare.tokens) / sampled.lines) : TYPICAL_ENTRY_TOKENS;
    const charsPerEntry = sampled.lines > 0 ? Math.max(1, (sampled.chars - bare.chars) / sampled.lines) : TYPICAL_ENTRY_CHARS;
    const rule = profile.cache(settings.model);
    const verdict: PromptCacheReport['verdict'] =
      rule.mode === 'none' ? 'not-reported' : rule.mode === 'auto' ? (now.tokens >= rule.minTokens ? 'caches' : 'below-minimum') : 'unknown';
    let suggestedEntries: PromptCacheReport['suggestedEntries'] = null;
    let suggestedHistoryChars: number | null = null;
    if (verdict === 'below-minimum') {
      const low = Math.max(1, Math.ceil((rule.minTokens - bare.tokens) / perEntry));
      // Entries differ in length; twice the measured need keeps the prefix above the minimum after most rebuilds.
      const high = Math.min(1000, Math.max(low + 1, low * 2));
      if (!settings.history.enabled || settings.history.maxEntries < low) {
        suggestedEntries = { low, high };
        const chars = Math.ceil(high * charsPerEntry);
        if (chars >= settings.history.maxHistoryChars) suggestedHistoryChars = Math.ceil(chars / 1000) * 1000 + 1000;
      }
    }
    return {
      providerId,
      providerLabel: profile.kind === 'other' ? providerId : profile.label,
      model: settings.model,
      promptTokens: now.tokens,
      tokenMethod: counter.method === 'bpe' ? 'exact' : 'estimate',
      cache: { mode: rule.mode, minTokens: rule.minTokens, stepTokens: rule.stepTokens, note: rule.note },
      verdict,
      historyEnabled: settings.history.enabled,
      maxEntries: settings.history.maxEntries,
      tokensPerEntry: Math.round(perEntry * 10) / 10,
      suggestedEntries,
      suggestedHistoryChars,
      budget: b
        ? {
            method: b.method, tokenizer: b.tokenizer, window: b.window, windowSource: b.windowSource, systemTokens: b.systemTokens, historyTokens: b.historyTokens,
            vocabularyTokens: b.vocabularyTokens, tailTokens: b.tailTokens, inputTokens: b.inputTokens, promptTokens: b.promptTokens, maxOutputTokens: b.maxOutputTokens,
            requestCount: b.requestCount, remaining: b.remaining, historyLines: b.historyLines, dropped: b.dropped,
          }
        : null,
    };
  } finally {
    enhancer.close();
  }
}
