import type { PromptLanguage } from './builtin-modes.ts';
import type { CorrectionRetriever } from './correction-retrieval.ts';
import type { HistoryBuilder, HistoryLimits } from './history-builder.ts';
import type { ChatMessage, LlmProvider } from './llm-client.ts';
import type { EnhanceMode } from './modes.ts';
import { buildSystemPrompt, stablePrompt, type PromptParts } from './prompt.ts';
import { profileFor } from './providers/registry.ts';
import { buildRequestBody } from './providers/request-body.ts';
import type { ProviderWindow, WindowSource } from './context-window.ts';
import { byteUpperBound, contextWindowFor, estimateTokens, MESSAGE_OVERHEAD_TOKENS, tokenCounterFor, type TokenCounter } from './token-count.ts';
import type { VocabularyStore } from './vocabulary-store.ts';

/**
 * Builds the request body of one enhancement step: context sources (each failing soft), the system
 * prompt in cache-friendly order, the token budget (the model's window from the provider's profile), and the
 * body the provider's profile says it accepts (providers/request-body.ts), the user's extra_body last.
 */

/** The settings a step needs. */
export interface StepSettings {
  readonly lang: PromptLanguage;
  readonly model: string;
  readonly thinking: boolean;
  readonly maxOutputTokens: number;
  /** `shareProperNouns`: retrieve proper-noun corrections made in other modes too (absent: on). */
  readonly history: HistoryLimits & { readonly enabled: boolean; readonly shareProperNouns?: boolean };
  readonly vocabulary: { readonly enabled: boolean; readonly maxLlmEntries: number };
  readonly contextNote: string;
  /** Override of the model's context window (tokens). */
  readonly contextWindow?: number;
}

/** The context sources (any may be absent). */
export interface StepSources {
  readonly builder: HistoryBuilder | null;
  readonly vocabulary: VocabularyStore | null;
  readonly retriever: CorrectionRetriever | null;
  readonly warn: (message: string) => void;
  /** What the provider says the model's window is (context-window.ts), when it was asked. */
  readonly providerWindow?: ProviderWindow;
}

/** The budget a request was built under, and what had to go (seed 002: history tokens, max, remaining). */
export interface BudgetFacts {
  /** The model's context window (input + output) and where that number came from. */
  readonly window: number;
  readonly windowSource: WindowSource;
  /** Tokens kept free for the answer; the prompt's budget is window − reserve. */
  readonly reserve: number;
  readonly budget: number;
  /** 'exact' when the model's own tokenizer counted, 'estimate' otherwise. */
  readonly method: 'exact' | 'estimate';
  readonly tokenizer: TokenCounter['tokenizer'];
  /** What was dropped to fit: oldest history lines, retrieved older corrections (tail), vocabulary pairs. */
  readonly dropped: { readonly historyLines: number; readonly retrieved: number; readonly vocabularyPairs: number };
}

/** A built step request. */
export interface BuiltRequest {
  readonly body: Readonly<Record<string, unknown>>;
  readonly messages: readonly ChatMessage[];
  /** The start of the system message that does not depend on the input (what a key-down warm-up evaluates). */
  readonly stablePrefix: string;
  readonly historyLines: number;
  readonly vocabularyPairs: number;
  readonly retrieved: number;
  /**
   * Prompt tokens, counted as `tokenMethod` says: 'bpe' exact (the model's tokenizer was loaded), 'bound' the
   * UTF-8 byte length (an upper bound, used while the tokenizer is not loaded yet and the bound fits), 'estimate'
   * for models without a known tokenizer.
   */
  readonly promptTokens: number;
  readonly tokenMethod: 'bpe' | 'estimate' | 'bound';
  /** Set when the prompt cannot fit the model's context even without any context. */
  readonly tooLong: boolean;
  readonly budget: BudgetFacts;
  /** The prompt's parts as sent (for the budget report's breakdown). */
  readonly parts: PromptParts;
}

/** The context a step's prompt carries; the budget fit shortens it in place. */
interface StepContext {
  historyLines: readonly string[];
  /** Pairs chosen without the input (stable prefix). */
  vocabulary: { wrong: string; right: string }[];
  /** Further pairs matched in the input (dynamic tail). */
  matched: { wrong: string; right: string }[];
  retrieved: string[];
}

/** Most input-matched vocabulary pairs added to the tail (it is evaluated on every request: kept short). */
export const MAX_MATCHED_VOCABULARY = 5;

/**
 * The vocabulary as two lists: the top pairs chosen without the input (most missed, then most recent: the
 * same on every request until the vocabulary changes), and up to MAX_MATCHED_VOCABULARY further pairs whose
 * misheard form occurs in this input.
 */
function vocabularyFor(store: VocabularyStore, model: string, input: string, limit: number): { vocabulary: StepContext['vocabulary']; matched: StepContext['matched'] } {
  const pair = (e: { wrong: string; right: string }): { wrong: string; right: string } => ({ wrong: e.wrong, right: e.right });
  const stable = store.pairsForLlm(model, '', limit).map(pair);
  const taken = new Set(stable.map((e) => `${e.wrong}\u0000${e.right}`));
  const matched = store
    .pairsForLlm(model, input, limit + MAX_MATCHED_VOCABULARY)
    .filter((e) => input.includes(e.wrong) && !taken.has(`${e.wrong}\u0000${e.right}`))
    .slice(0, MAX_MATCHED_VOCABULARY)
    .map(pair);
  return { vocabulary: stable, matched };
}

/** Reads the context sources: history, vocabulary, retrieved corrections; each failing soft (a warning, no lines). */
async function gatherContext(step: EnhanceMode, input: string, s: StepSettings, src: StepSources): Promise<StepContext> {
  let historyLines: readonly string[] = [];
  if (s.history.enabled && src.builder) {
    try {
      historyLines = (await src.builder.build(step.id, s.history)).lines;
    } catch (err) {
      src.warn(`history context unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  let vocabulary: { wrong: string; right: string }[] = [];
  let matched: { wrong: string; right: string }[] = [];
  const vocabularyOn = s.vocabulary.enabled && src.vocabulary !== null;
  if (vocabularyOn && src.vocabulary && s.vocabulary.maxLlmEntries > 0) {
    try {
      ({ vocabulary, matched } = vocabularyFor(src.vocabulary, s.model, input, s.vocabulary.maxLlmEntries));
    } catch (err) {
      src.warn(`vocabulary unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  let retrieved: string[] = [];
  if (s.history.enabled && src.retriever) {
    try {
      retrieved = src.retriever.retrieve(input, step.id, new Set(historyLines), undefined, s.history.shareProperNouns ?? true);
    } catch (err) {
      src.warn(`correction retrieval unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { historyLines, vocabulary, matched, retrieved };
}

/** The model's context window and where it came from: the config, the provider, the provider's profile, the table. */
function contextWindowOf(s: StepSettings, providerWindow: ProviderWindow | undefined, profileWindow: number | undefined): [number, WindowSource] {
  return s.contextWindow !== undefined ? [s.contextWindow, 'config']
    : providerWindow ? [providerWindow.tokens, providerWindow.source]
    : profileWindow !== undefined ? [profileWindow, 'profile'] : [contextWindowFor(s.model), 'table'];
}

/** What {@link fitToBudget} needs besides the context. */
interface FitInputs {
  readonly budget: number;
  readonly counter: TokenCounter;
  readonly input: string;
  /** The system prompt of the context as it stands. */
  readonly render: () => string;
  /** True when the counter is exact (tokenCounterFor has loaded the tokenizer by then). */
  readonly exactReady: boolean;
  /** The builder's trim of its oldest lines (it keeps the shortened list as its new base). */
  readonly trimOldest: (drop: number) => { readonly lines: readonly string[] } | null | undefined;
}

/** The fitted prompt: the system prompt, its tokens and how they were counted. */
interface Fitted {
  readonly system: string;
  readonly tokens: number;
  readonly method: BuiltRequest['tokenMethod'];
  readonly tooLong: boolean;
}

/**
 * Fits the prompt into the budget, shortening `c` in place: a byte upper bound first (the fast path); when that
 * is over, a real count, and older history goes first, then the retrieved tail, then vocabulary.
 */
function fitToBudget(c: StepContext, system0: string, f: FitInputs): Fitted {
  const { budget, counter, input, render } = f;
  const overhead = 2 * MESSAGE_OVERHEAD_TOKENS;
  let system = system0;
  const count = (): number => counter.count(system) + counter.count(input) + overhead;
  // An exact count when the model's tokenizer is already loaded (memoised per line: well under a millisecond);
  // else the byte bound when it fits, so a tokenizer still loading never delays a dictation.
  let tokens = f.exactReady ? count() : byteUpperBound(system) + byteUpperBound(input) + overhead;
  if (tokens <= budget) return { system, tokens, method: f.exactReady ? counter.method : 'bound', tooLong: false };
  tokens = count();
  // Older history goes first (the builder keeps the shortened list as its new base), then the tail, then vocabulary.
  while (tokens > budget && c.historyLines.length > 0) {
    const drop = Math.max(1, Math.ceil(c.historyLines.length / 4));
    const trimmed = f.trimOldest(drop);
    c.historyLines = trimmed ? trimmed.lines : c.historyLines.slice(drop);
    system = render();
    tokens = count();
  }
  if (tokens > budget && c.retrieved.length > 0) {
    c.retrieved = [];
    system = render();
    tokens = count();
  }
  if (tokens > budget && c.vocabulary.length + c.matched.length > 0) {
    c.vocabulary = [];
    c.matched = [];
    system = render();
    tokens = count();
  }
  return { system, tokens, method: counter.method, tooLong: tokens > budget };
}

/** Builds the body for one step. */
export async function buildStepRequest(
  step: EnhanceMode,
  input: string,
  s: StepSettings,
  src: StepSources,
  provider: LlmProvider | undefined,
  inputContext = '',
): Promise<BuiltRequest> {
  const c = await gatherContext(step, input, s, src);
  const parts = (): PromptParts => ({
    // A source's header bullet appears only when it contributes lines (an empty vocabulary or a mode with
    // no confirmed dictations yet adds nothing); both change rarely, so the cached prefix stays stable.
    modePrompt: step.prompt, lang: s.lang, thinking: s.thinking, historyEnabled: c.historyLines.length > 0,
    vocabularyEnabled: c.vocabulary.length + c.matched.length > 0, historyLines: c.historyLines, vocabulary: c.vocabulary, matchedVocabulary: c.matched,
    retrieved: c.retrieved, contextNote: s.contextNote, inputContext,
  });
  const system0 = buildSystemPrompt(parts());

  // Token budget: the context window minus a reserve for the answer (about twice the input, at most max_output_tokens).
  const counter = tokenCounterFor(s.model);
  const profile = profileFor(provider?.kind);
  const [window, windowSource] = contextWindowOf(s, src.providerWindow, profile.contextWindow(s.model));
  const before = { historyLines: c.historyLines.length, retrieved: c.retrieved.length, vocabularyPairs: c.vocabulary.length + c.matched.length };
  const reserve = Math.min(s.maxOutputTokens, Math.max(256, 2 * estimateTokens(input) + 64));
  const budget = window - reserve;
  const trimOldest = (drop: number) => src.builder?.trimOldest(step.id, drop);
  const exactReady = counter.method === 'bpe';
  const { system, tokens, method, tooLong } = fitToBudget(c, system0, { budget, counter, input, exactReady, render: () => buildSystemPrompt(parts()), trimOldest });
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: input },
  ];
  const body = buildRequestBody(profile, {
    model: s.model,
    messages,
    // What the window leaves after the prompt: from the exact count where there is one (a bound would shrink it
    // by the bound's slack, which grows with the history), never more than max_output_tokens.
    maxTokens: Math.min(s.maxOutputTokens, Math.max(64, budget - tokens + reserve)),
    thinking: s.thinking,
    extraBody: provider?.extraBody,
  });
  const dropped = { historyLines: before.historyLines - c.historyLines.length, retrieved: before.retrieved - c.retrieved.length, vocabularyPairs: before.vocabularyPairs - c.vocabulary.length - c.matched.length };
  const facts: BudgetFacts = { window, windowSource, reserve, budget, method: counter.method === 'bpe' ? 'exact' : 'estimate', tokenizer: counter.tokenizer, dropped };
  const final = parts();
  return { body, messages, stablePrefix: stablePrompt(final), historyLines: c.historyLines.length, vocabularyPairs: c.vocabulary.length + c.matched.length, retrieved: c.retrieved.length, promptTokens: tokens, tokenMethod: method, tooLong, budget: facts, parts: final };
}

/** The budget report: tokens per part of the prompt, the window, what remains and what was dropped. */
export interface BudgetReport extends BudgetFacts {
  readonly model: string;
  /** Mode prompt, rules and the context header without any of the parts below. */
  readonly systemTokens: number;
  readonly historyTokens: number;
  readonly vocabularyTokens: number;
  /** The dynamic tail: vocabulary pairs matched in the input, retrieved older corrections and the input context. */
  readonly tailTokens: number;
  /** The text to enhance (the user message) and the role markers of both messages. */
  readonly inputTokens: number;
  readonly overheadTokens: number;
  readonly promptTokens: number;
  /** The answer's limit as sent (max_tokens) and the prompt budget left unused. */
  readonly maxOutputTokens: number;
  /**
   * How the request's own prompt count (the one max_tokens was derived from) was made: 'exact' (the model's
   * tokenizer), 'bound' (UTF-8 bytes, never fewer than the real count) or 'estimate' (no tokenizer known).
   * The per-part counts above are always `method`.
   */
  readonly requestCount: { readonly tokens: number; readonly method: 'exact' | 'bound' | 'estimate' };
  readonly remaining: number;
  readonly historyLines: number;
  readonly vocabularyPairs: number;
  readonly retrieved: number;
}

/** Counts every part of a built request exactly (or estimates them, as `budget.method` says); off the hot path. */
export function budgetReport(model: string, built: BuiltRequest): BudgetReport {
  const counter = tokenCounterFor(model);
  const p = built.parts;
  const count = (parts: PromptParts): number => counter.count(buildSystemPrompt(parts));
  const full = count(p);
  const noTail = count({ ...p, retrieved: [], inputContext: '', matchedVocabulary: [] });
  const noVocabulary = count({ ...p, retrieved: [], inputContext: '', matchedVocabulary: [], vocabulary: [], vocabularyEnabled: false });
  const bare = count({ ...p, retrieved: [], inputContext: '', matchedVocabulary: [], vocabulary: [], vocabularyEnabled: false, historyLines: [], historyEnabled: false });
  const input = counter.count(String(built.messages[1]?.content ?? ''));
  const overheadTokens = 2 * MESSAGE_OVERHEAD_TOKENS;
  const promptTokens = full + input + overheadTokens;
  const maxOutputTokens = Number(built.body.max_tokens ?? built.body.max_completion_tokens ?? built.budget.reserve);
  return {
    ...built.budget,
    model,
    systemTokens: bare,
    historyTokens: noVocabulary - bare,
    vocabularyTokens: noTail - noVocabulary,
    tailTokens: full - noTail,
    inputTokens: input,
    overheadTokens,
    promptTokens,
    maxOutputTokens,
    requestCount: { tokens: built.promptTokens, method: countLabel(built.tokenMethod) },
    remaining: built.budget.budget - promptTokens,
    historyLines: built.historyLines,
    vocabularyPairs: built.vocabularyPairs,
    retrieved: built.retrieved,
  };
}

/** The label of a request's prompt count: the model's tokenizer ('exact'), the UTF-8 byte bound, or an estimate. */
export function countLabel(m: BuiltRequest['tokenMethod']): 'exact' | 'bound' | 'estimate' {
  return m === 'bpe' ? 'exact' : m;
}
