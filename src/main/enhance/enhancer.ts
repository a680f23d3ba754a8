import path from 'node:path';
import { providerRefusalText } from '../../shared/notices/notice-text.ts';
import { redact } from '../../shared/redact.ts';
import { keyMismatchText } from '../../shared/secret-names.ts';
import { RESERVED_MODE_OFF } from './builtin-modes.ts';
import { CorrectionRetriever, type CorrectionHistory, type RetrievalStats } from './correction-retrieval.ts';
import { checkDivergence, guardTaskOf } from './divergence-guard.ts';
import { HistoryBuilder, type RecentHistorySource } from './history-builder.ts';
import { streamChat, type CallUsage, type ChatOutcome, type FailureReason, type LlmProvider, type StreamEvent } from './llm-client.ts';
import { chosenModeIssue, loadModes, modesDir, resolveMode, stepsOf, type EnhanceMode, type ModeIssue } from './modes.ts';
import type { ContextWindowLookup, ProviderWindow } from './context-window.ts';
import { budgetReport, buildStepRequest, type BudgetReport, type BuiltRequest } from './request-builder.ts';
import { preloadTokenizer } from './tokenizers.ts';
import { responseCapChars } from './think-split.ts';
import type { VocabularyStore } from './vocabulary-store.ts';
import { withTimeout } from '../../shared/with-timeout.ts';
import type { EnhancerSettings } from './enhancer-settings.ts';
import type { LocalBridge, WarmOutcome } from './local-llm/local-bridge.ts';
import { warmServer } from './server-warm-up.ts';

/**
 * The enhancement step of a dictation: resolves the mode (or chain), builds each step's request with
 * history, vocabulary, retrieved corrections and the pinned note, calls the model within one hard
 * deadline, and guards the answer. It never throws for a model problem: any failure, empty answer or
 * divergent answer gives the raw ASR text back with a reason the UI can show.
 */

export { DEFAULT_TIMEOUT_MS, providerFromConfig, settingsFromConfig, type EnhancerSettings, type SecretReader } from './enhancer-settings.ts';

/** How long after the enhancer opens (or its model changes) the tokenizer loads in the background. */
const TOKENIZER_PRELOAD_DELAY_MS = 5000;

/** Services the enhancer uses; every context source is optional. */
export interface EnhancerDeps {
  readonly dataDir: string;
  readonly history?: RecentHistorySource | null;
  /** The history service (index + change events) for the retrieval of older corrections; null turns it off. */
  readonly corrections?: CorrectionHistory | null;
  readonly vocabulary?: VocabularyStore | null;
  readonly provider: (id: string) => LlmProvider | undefined;
  readonly log?: (level: 'info' | 'warn', message: string) => void;
  readonly now?: () => number;
  /** Asks the provider for the model's context window (cached per provider + model); absent: profile and table only. */
  readonly contextWindows?: ContextWindowLookup | null;
  /** The built-in engine (provider kind `local`); absent: a `local` provider falls back to the raw text. */
  readonly local?: LocalBridge | null;
}

/** One enhancement request. */
export interface EnhanceRequest {
  readonly text: string;
  /** Mode id; the configured one when absent. */
  readonly mode?: string;
  /** App/window the user dictates into (dynamic tail only). */
  readonly inputContext?: string;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: StreamEvent & { readonly step: number }) => void;
}

/** Outcome of an enhancement. */
export interface EnhanceResult {
  /** enhanced: model output used; fallback: raw text after a failure; guarded: raw text, model output looked wrong; off: not enhanced. */
  readonly status: 'enhanced' | 'fallback' | 'guarded' | 'off';
  /** The text to hand to the preview/paste. */
  readonly text: string;
  readonly raw: string;
  /** Model output (null unless status is enhanced). */
  readonly enhanced: string | null;
  /** The model's output the guard rejected, for the preview to offer. */
  readonly suggestion: string | null;
  readonly reason: FailureReason | null;
  readonly thinking: string;
  readonly mode: string;
  readonly steps: readonly string[];
  readonly model: string;
  /** Mode to log the record under; null for chains (they write no history). */
  readonly historyMode: string | null;
  readonly usage: CallUsage | null;
  readonly elapsedMs: number;
}

/** The enhancer service. */
export class Enhancer {
  private modeList: readonly EnhanceMode[] = [];
  private issues: readonly ModeIssue[] = [];
  private settings: EnhancerSettings;
  private readonly deps: EnhancerDeps;
  private readonly builder: HistoryBuilder | null;
  private readonly retriever: CorrectionRetriever | null;
  private rewarmTimer: NodeJS.Timeout | null = null;
  private stopFollowing: (() => void) | null = null;

  private constructor(deps: EnhancerDeps, settings: EnhancerSettings) {
    this.deps = deps;
    this.settings = settings;
    this.builder = deps.history ? new HistoryBuilder(deps.history) : null;
    this.retriever = deps.corrections ? new CorrectionRetriever(deps.corrections, { warn: (m) => this.warn(m) }) : null;
  }

  /** Creates the enhancer and loads the modes (writing missing built-ins). */
  static async open(deps: EnhancerDeps, settings: EnhancerSettings): Promise<Enhancer> {
    const e = new Enhancer(deps, settings);
    e.warmUp();
    await e.reloadModes();
    // The pass over older corrections starts now, in the background, so it is usually done by the first dictation.
    if (settings.history.enabled) e.retriever?.start();
    // A confirmed dictation, an edit or a rebuild changes the history lines: the built-in engine re-warms the recent modes' prefixes.
    e.stopFollowing = deps.corrections?.store.onChange(() => e.scheduleRewarm()) ?? null;
    return e;
  }

  /** Re-reads `enhance_modes/`; broken files are reported in `modeIssues` and skipped. */
  async reloadModes(): Promise<void> {
    const loaded = await loadModes(modesDir(this.deps.dataDir), { lang: this.settings.lang });
    this.modeList = loaded.modes;
    this.issues = loaded.issues;
    for (const i of loaded.issues) this.warn(`mode file skipped: ${i.file}: ${i.message}`);
  }

  /** Loaded modes in menu order. */
  get modes(): readonly EnhanceMode[] {
    return this.modeList;
  }

  /** Mode files that could not be used. */
  get modeIssues(): readonly ModeIssue[] {
    return this.issues;
  }

  /**
   * Why the mode `id` (the configured one when absent) cannot be used — its file is broken (with the
   * line) or missing — so the built-in proofread mode runs instead; null when it loaded.
   */
  chosenModeIssue(id: string = this.settings.mode): ModeIssue | null {
    if (id === RESERVED_MODE_OFF) return null;
    return chosenModeIssue(this.modeList, this.issues, id) ?? (this.modeList.some((m) => m.id === id) ? null : { file: path.join(modesDir(this.deps.dataDir), `${id}.md`), message: 'there is no such mode file', line: null });
  }

  /** Resolves once the table of older corrections is loaded (the dry run and tests wait for it; dictations do not). */
  async correctionsLoaded(): Promise<void> {
    if (this.settings.history.enabled) await this.retriever?.whenLoaded();
  }

  /** State of the correction table (null when retrieval is not wired). */
  get retrievalStats(): RetrievalStats | null {
    return this.retriever?.stats() ?? null;
  }

  /** Stops following history changes. */
  close(): void {
    this.retriever?.close();
    this.stopFollowing?.();
    if (this.rewarmTimer) clearTimeout(this.rewarmTimer);
  }

  private usesLocalEngine(): boolean {
    return this.deps.local != null && this.deps.provider(this.settings.providerId)?.kind === 'local';
  }

  private scheduleRewarm(): void {
    if (!this.usesLocalEngine()) return;
    if (this.rewarmTimer) clearTimeout(this.rewarmTimer);
    this.rewarmTimer = setTimeout(() => {
      this.rewarmTimer = null;
      void (async () => {
        for (const mode of this.deps.local?.recentModes() ?? []) await this.prewarm(mode);
      })();
    }, REWARM_DELAY_MS);
    this.rewarmTimer.unref?.();
  }

  /**
   * Warms the prompt prefix that does not depend on the input (mode prompt → header → history lines →
   * vocabulary → note) for the mode's first step: on the built-in engine it is evaluated into the mode's
   * sequence; a local server (and a cloud provider when `warm_up` is 'all') gets the request its
   * documentation says prefills it (server-warm-up.ts). Called at key-down, while the user speaks; never throws.
   */
  async prewarm(modeId?: string): Promise<WarmOutcome | null> {
    const s = this.settings;
    if ((s.warmUp ?? 'local') === 'off' || (modeId ?? s.mode) === RESERVED_MODE_OFF) return null;
    const provider = this.deps.provider(s.providerId);
    if (!provider) return null;
    try {
      const mode = resolveMode(this.modeList, modeId ?? s.mode, s.lang);
      const first = stepsOf(this.modeList, mode)[0];
      if (!first) return null;
      const built = await buildStepRequest(first, '', s, this.sources(await this.providerWindow(provider)), provider, '');
      if (provider.kind === 'local') return (await this.deps.local?.warm(built, { mode: first.id, model: s.model, thinking: s.thinking })) ?? null;
      return await warmServer(provider, built, { cloud: s.warmUp === 'all', connectTimeoutMs: s.connectTimeoutMs, mode: first.id });
    } catch (err) {
      this.warn(`warm-up skipped: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  }

  /** The history builder (for diagnostics and tests). */
  get historyBuilder(): HistoryBuilder | null {
    return this.builder;
  }

  /** Applies new settings (a settings change that affects the history rebuilds it on the next build). */
  updateSettings(settings: EnhancerSettings): void {
    if (settings.history.enabled !== this.settings.history.enabled) this.builder?.clear();
    const changed = settings.model !== this.settings.model || settings.providerId !== this.settings.providerId;
    this.settings = settings;
    if (changed) this.warmUp();
  }

  /**
   * Asks the provider for the model's window now (I/O only) and loads the model's tokenizer a few seconds
   * later (0.3–1 s of CPU on this thread), so neither lands on the start path; a count needed before that
   * loads it on the spot (and only when the prompt's byte length does not already fit).
   */
  private warmUp(): void {
    const { model, providerId } = this.settings;
    setTimeout(() => void this.deps.contextWindows?.resolve(this.deps.provider(providerId), model), 0).unref?.();
    setTimeout(() => void preloadTokenizer(model), TOKENIZER_PRELOAD_DELAY_MS).unref?.();
  }

  /** The provider's window for the current model (cached after the first lookup). */
  private async providerWindow(provider: LlmProvider | undefined): Promise<ProviderWindow | undefined> {
    if (this.settings.contextWindow !== undefined || !this.deps.contextWindows) return undefined;
    return this.deps.contextWindows.resolve(provider, this.settings.model);
  }

  /** The model requests are built for. */
  get currentModel(): string {
    return this.settings.model;
  }

  /** The budget report of the request `buildRequest` would send (every part counted; for the dry run and Settings). */
  async budgetReport(text: string, modeId?: string, inputContext = ''): Promise<BudgetReport | null> {
    const built = await this.buildRequest(text, modeId, inputContext);
    return built ? budgetReport(this.settings.model, built.request) : null;
  }

  /** The request of the first step exactly as it would be sent (dry run; later chain steps depend on earlier answers). */
  async buildRequest(text: string, modeId?: string, inputContext = ''): Promise<{ mode: EnhanceMode; steps: readonly EnhanceMode[]; request: BuiltRequest } | null> {
    const mode = resolveMode(this.modeList, modeId ?? this.settings.mode, this.settings.lang);
    const steps = stepsOf(this.modeList, mode);
    const first = steps[0];
    if (!first) return null;
    await this.correctionsLoaded();
    const provider = this.deps.provider(this.settings.providerId);
    await preloadTokenizer(this.settings.model);
    return { mode, steps, request: await buildStepRequest(first, text.trim(), this.settings, this.sources(await this.providerWindow(provider)), provider, inputContext) };
  }

  /** Runs the enhancement; never throws for provider or model problems. */
  async enhance(req: EnhanceRequest): Promise<EnhanceResult> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const raw = req.text.trim();
    const s = this.settings;
    const modeId = req.mode ?? s.mode;
    const base = { raw, enhanced: null, suggestion: null, thinking: '', model: s.model, usage: null } as const;
    const fallback = (mode: string, steps: readonly string[], historyMode: string | null, reason: FailureReason, extra: Partial<EnhanceResult> = {}): EnhanceResult => {
      // A refused model name the provider did not repeat is the one configured; the raw body goes to the log only.
      const refusal = reason.refusal?.kind === 'bad-model' && reason.refusal.model === undefined ? { ...reason.refusal, model: s.model } : reason.refusal;
      const message = this.scrub(refusal ? providerRefusalText('en', refusal) : reason.message);
      const r: EnhanceResult = { ...base, status: 'fallback', text: raw, reason: { code: reason.code, message, ...(refusal ? { refusal } : {}) }, mode, steps, historyMode, elapsedMs: now() - started, ...extra };
      this.warn(`enhancement fell back to the raw text (${reason.code}): ${message}${reason.detail ? `; the provider answered ${reason.detail}` : ''}`);
      return r;
    };
    if (modeId === RESERVED_MODE_OFF || raw === '') {
      return { ...base, status: 'off', text: raw, reason: null, mode: modeId, steps: [], historyMode: modeId, elapsedMs: 0 };
    }
    // An unusable chosen mode (broken file, unknown id) runs as the built-in proofread mode; see chosenModeIssue.
    const mode = resolveMode(this.modeList, modeId, s.lang);
    const steps = stepsOf(this.modeList, mode);
    const stepIds = steps.map((m) => m.id);
    const historyMode = mode.steps === null ? mode.id : null;
    const provider = this.deps.provider(s.providerId);
    if (!provider) return fallback(mode.id, stepIds, historyMode, { code: 'no-provider', message: `provider "${s.providerId}" is not configured` });
    // The key was entered for another server than base_url names now: refused here, so it is never sent there.
    if (provider.keyMismatch) return fallback(mode.id, stepIds, historyMode, { code: 'auth', message: keyMismatchText(`provider "${provider.id}"`, provider.keyMismatch) });
    const deadlineAt = started + s.timeoutMs;
    if (s.history.enabled) this.retriever?.refresh(); // never waits: a pass still running just means fewer retrieved lines
    let input = raw;
    let thinking = '';
    let usage: CallUsage | null = null;
    for (const [i, step] of steps.entries()) {
      const built = await buildStepRequest(step, input, s, this.sources(await this.providerWindow(provider)), provider, req.inputContext ?? '');
      if (built.tooLong) return fallback(mode.id, stepIds, historyMode, { code: 'too-long', message: `the text does not fit the model's context (${built.promptTokens} tokens)` });
      // A hard deadline: the raw text is handed back by `deadlineAt` even if the call has not let go yet;
      // the answer is cut off once it is far longer than its input could warrant (responseCapChars).
      const out = provider.kind === 'local' ? await this.localStep(built, step.id, req, i) : await withHardDeadline(
        streamChat({
          provider, body: built.body, deadlineAt, connectTimeoutMs: s.connectTimeoutMs, maxRetries: s.maxRetries, now,
          maxResponseChars: responseCapChars(input.length),
          ...(req.signal ? { signal: req.signal } : {}),
          ...(req.onEvent ? { onEvent: (e: StreamEvent) => req.onEvent?.({ ...e, step: i }) } : {}),
        }),
        deadlineAt - now(),
      );
      if (!out.ok) return fallback(mode.id, stepIds, historyMode, out.reason, { usage: addUsage(usage, out.usage ?? null), thinking });
      usage = addUsage(usage, out.usage);
      thinking = [thinking, out.thinking].filter((t) => t !== '').join('\n');
      if (out.answer.trim() === '') return fallback(mode.id, stepIds, historyMode, { code: 'empty', message: 'the model returned an empty answer' }, { usage, thinking });
      const verdict = checkDivergence(input, out.answer, step.guard, guardTaskOf(step.id, step.guard), { pairs: this.termPairs(input) });
      if (!verdict.ok) {
        this.warn(`guard kept the raw text (${step.id}): ${verdict.why}`);
        return { ...base, status: 'guarded', text: raw, suggestion: out.answer, reason: { code: 'diverged', message: verdict.why }, thinking, mode: mode.id, steps: stepIds, historyMode, usage, elapsedMs: now() - started };
      }
      input = out.answer;
    }
    return { ...base, status: 'enhanced', text: input, enhanced: input, reason: null, thinking, mode: mode.id, steps: stepIds, historyMode, usage, elapsedMs: now() - started };
  }

  /** The vocabulary pairs that may change a word of `text` on purpose (the guard lets them: cloud → Claude); none when the vocabulary cannot be read. */
  private termPairs(text: string): readonly { readonly wrong: string; readonly right: string }[] {
    const lower = text.toLowerCase();
    try {
      return (this.deps.vocabulary?.pairsForLlm(this.settings.model, text, 50) ?? []).filter((p) => lower.includes(p.wrong.toLowerCase()));
    } catch {
      return [];
    }
  }

  /** One step on the built-in engine: its deadline counts from the moment the engine starts on it (local-provider.ts). */
  private localStep(built: BuiltRequest, mode: string, req: EnhanceRequest, step: number): Promise<ChatOutcome> {
    const local = this.deps.local;
    if (!local) return Promise.resolve({ ok: false, reason: { code: 'no-provider', message: 'the built-in engine is not available in this process' }, attempts: 0 });
    const s = this.settings;
    return local.call(built, {
      mode, model: s.model, thinking: s.thinking, timeoutMs: s.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.onEvent ? { onEvent: (e: StreamEvent) => req.onEvent?.({ ...e, step }) } : {}),
    });
  }

  private sources(providerWindow?: ProviderWindow): { builder: HistoryBuilder | null; vocabulary: VocabularyStore | null; retriever: CorrectionRetriever | null; warn: (m: string) => void; providerWindow?: ProviderWindow } {
    return { builder: this.builder, vocabulary: this.deps.vocabulary ?? null, retriever: this.retriever, warn: (m) => this.warn(m), ...(providerWindow ? { providerWindow } : {}) };
  }

  private scrub(text: string): string {
    const p = this.deps.provider(this.settings.providerId);
    return redact(text, [p?.apiKey]);
  }

  private warn(message: string): void {
    this.deps.log?.('warn', this.scrub(message));
  }
}

/** How long after a history change the background re-warm starts (changes come in bursts: append, then index). */
const REWARM_DELAY_MS = 300;

/** Grace after the deadline for the call's own timeout to report (it normally does within a few ms). */
const HARD_DEADLINE_GRACE_MS = 50;

/** The call's outcome, or a timeout once `ms` (plus a small grace) have passed, whichever comes first. */
function withHardDeadline(call: Promise<ChatOutcome>, ms: number): Promise<ChatOutcome> {
  const late: ChatOutcome = { ok: false, reason: { code: 'timeout', message: 'the model did not finish before the deadline' }, attempts: 0 };
  return withTimeout(call, Math.max(0, ms) + HARD_DEADLINE_GRACE_MS, late);
}

function addUsage(a: CallUsage | null, b: CallUsage | null): CallUsage | null {
  if (!b) return a;
  if (!a) return b;
  return { prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens, cached_tokens: a.cached_tokens + b.cached_tokens };
}
