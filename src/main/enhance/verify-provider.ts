import type { ProviderCheckCode, ProviderCheckResult, VerifyAdvice } from '../../shared/ipc/provider-types.ts';
import type { ProviderRefusal } from '../../shared/notices/notice.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { redact } from '../../shared/redact.ts';
import { hostOf } from '../../shared/url-host.ts';
import { RESERVED_MODE_OFF, type PromptLanguage } from './builtin-modes.ts';
import { Enhancer, type EnhanceResult, type EnhancerSettings } from './enhancer.ts';
import type { RecentHistorySource } from './history-builder.ts';
import { listModels, type LlmProvider, type ModelListing } from './llm-client.ts';
import { profileFor, PROFILES } from './providers/registry.ts';
import { recogniseKind } from '../../shared/providers/recognise-kind.ts';
import type { VocabularyStore } from './vocabulary-store.ts';
import { sharedLocalBridge } from './local-llm/local-bridge.ts';

/**
 * Settings' Verify: proves that a dictation will work with a provider by making one. It runs the real
 * enhancement path — the configured mode's system prompt (with the user's history, vocabulary and note, as a
 * dictation has them), the body the provider's profile builds (thinking as configured, extra_body applied,
 * streaming with usage), the dictation's deadline and retries, and the guard — on a one-sentence test text in
 * the UI language. It is green only when a cleaned text came back and passed the guard. Otherwise it says what
 * the provider refused and, where it can tell, what to change: a field that comes from extra_body, a provider
 * type that does not match the server, a thinking state the model refuses, a model name (with the models the
 * provider offers). The provider's model list is read alongside, as an offer only: an id it does not list
 * (Volcengine Ark `ep-…` endpoints, Zhipu without /models) is not an error — the real request decides.
 */

/** The test dictation, per UI language: a typical unpunctuated ASR sentence with a filler word to clean. */
export const VERIFY_SAMPLES: Readonly<Record<PromptLanguage, string>> = {
  zh: '嗯明天下午三点我们在三楼会议室开会讨论一下新版本的发布计划',
  en: 'um so tomorrow at three pm we meet in the third floor meeting room to go over the release plan',
};

/** The mode Verify runs when enhancement is set to no mode: what a dictation gets once a mode is chosen. */
const VERIFY_FALLBACK_MODE = 'proofread';

/** What Verify reads besides the provider and the settings. */
export interface VerifyDeps {
  /** The data folder (its enhance_modes/ holds the mode files). */
  readonly dataDir: string;
  /** The history the dictation's prompt is built from (null: none, as with history injection off). */
  readonly history?: RecentHistorySource | null;
  readonly vocabulary?: VocabularyStore | null;
  /** The raw provider error body goes here (and only here). */
  readonly log?: (level: 'info' | 'warn', message: string) => void;
  /** Deadline of the model-list request (default: the dictation's deadline, at most 10 s). */
  readonly listTimeoutMs?: number;
}

/** The model a provider's dictations use: `default_model` for the default provider, else the first of its `models`. */
export function providerModel(config: Config, providerId: string): string {
  const a = config.ai_enhance;
  if (providerId === a.default_provider) return a.default_model;
  return a.providers[providerId]?.models[0] ?? '';
}

/** Sends a real dictation's request to the provider (see the file comment); never throws for a provider problem. */
export async function verifyProvider(provider: LlmProvider, settings: EnhancerSettings, deps: VerifyDeps): Promise<ProviderCheckResult> {
  const sample = VERIFY_SAMPLES[settings.lang];
  const started = Date.now();
  const s: EnhancerSettings = { ...settings, providerId: provider.id, mode: settings.mode === RESERVED_MODE_OFF ? VERIFY_FALLBACK_MODE : settings.mode };
  // The built-in engine has no server to list models: its model is a file.
  const listing: Promise<ModelListing> = provider.kind === 'local' ? Promise.resolve({ state: 'no-list' }) : listModels(provider, deps.listTimeoutMs ?? Math.min(settings.timeoutMs, 10_000));
  const base = { model: s.model, sample, host: hostOf(provider.baseURL), timeoutSeconds: Math.round(s.timeoutMs / 100) / 10 };
  if (s.model.trim() === '') {
    const l = await listing;
    return {
      ...base, ok: false, code: 'failed', answer: null, refusal: null, elapsedMs: Date.now() - started, ...listed(l, ''),
      advice: { kind: 'model', model: '', offered: offeredModels(provider, l, '') }, message: 'no model is chosen for this provider',
    };
  }
  let result: EnhanceResult;
  const enhancer = await Enhancer.open(
    { dataDir: deps.dataDir, history: deps.history ?? null, vocabulary: deps.vocabulary ?? null, provider: (id) => (id === provider.id ? provider : undefined), ...(deps.log ? { log: deps.log } : {}), local: sharedLocalBridge() },
    s,
  );
  try {
    result = await enhancer.enhance({ text: sample });
  } finally {
    enhancer.close();
  }
  const l = await listing;
  const elapsedMs = Date.now() - started;
  const code = checkCode(result);
  const refusal = result.reason?.refusal ?? null;
  const scrub = (t: string): string => redact(t, [provider.apiKey]);
  return {
    ...base,
    ok: code === 'ok',
    code,
    answer: code === 'ok' ? result.text : code === 'guarded' ? result.suggestion : null,
    ...listed(l, s.model),
    refusal,
    advice: refusal ? adviceFor(provider, s, refusal, l) : null,
    elapsedMs,
    message: scrub(code === 'ok' ? `ok: ${s.model} answered in ${elapsedMs} ms` : `${code}: ${result.reason?.message ?? result.status}`),
  };
}

function listed(l: ModelListing, model: string): { models: readonly string[]; listed: boolean | null } {
  return l.state === 'listed' ? { models: l.models, listed: l.models.includes(model) } : { models: [], listed: null };
}

/** Verify's verdict from the enhancement's outcome. */
export function checkCode(r: EnhanceResult): ProviderCheckCode {
  if (r.status === 'enhanced') return 'ok';
  if (r.status === 'guarded') return 'guarded';
  const reason = r.reason;
  if (r.status !== 'fallback' || reason === null) return 'failed';
  switch (reason.code) {
    case 'auth':
      return 'auth';
    case 'timeout':
    case 'connect-timeout':
      return 'timeout';
    case 'network':
      return 'unreachable';
    case 'server':
      return reason.refusal && reason.refusal.kind !== 'server' ? 'refused' : 'server';
    case 'rate-limited':
    case 'bad-response':
      return reason.refusal ? 'refused' : 'failed';
    case 'too-large':
      // A 413 from the provider says what it refused; without one, the answer itself ran away (llm-client's cap).
      return reason.refusal ? 'refused' : 'failed';
    case 'too-long':
      return 'too-long';
    case 'truncated':
      return 'truncated';
    case 'empty':
      return 'empty';
    case 'cancelled':
    case 'no-provider':
    case 'diverged':
    case 'no-mode':
      return 'failed';
    default: {
      const never: never = reason.code;
      return never;
    }
  }
}

/** The label of the kind the base URL belongs to, when it is not the configured one (a hint only: requests never guess). */
function suggestedLabel(provider: LlmProvider): string | null {
  const k = recogniseKind(provider.baseURL);
  return k !== 'other' && k !== (provider.kind ?? 'other') ? PROFILES[k].label : null;
}

/** What to change for a refusal, when the provider's settings tell more than its error body. */
export function adviceFor(provider: LlmProvider, s: Pick<EnhancerSettings, 'model' | 'thinking'>, refusal: ProviderRefusal, listing: ModelListing): VerifyAdvice | null {
  const profile = profileFor(provider.kind);
  if (refusal.kind === 'bad-model') {
    const model = refusal.model ?? s.model;
    return { kind: 'model', model, offered: offeredModels(provider, listing, model) };
  }
  if ((refusal.kind !== 'unknown-field' && refusal.kind !== 'bad-parameter') || refusal.field === undefined) return null;
  const field = refusal.field.split('.')[0] ?? refusal.field;
  const extra = provider.extraBody;
  if (extra !== undefined && Object.hasOwn(extra, field) && extra[field] !== null) {
    return { kind: 'extra-body', field, providerKind: provider.kind ?? 'other', suggestedLabel: suggestedLabel(provider) };
  }
  if (refusal.kind === 'bad-parameter' && Object.hasOwn(profile.rules(s.model, s.thinking).thinking, field)) return { kind: 'thinking', field, thinking: s.thinking };
  return { kind: 'provider-kind', field, currentLabel: profile.label, suggestedLabel: suggestedLabel(provider) };
}

/** Models to offer instead of `refused`: the provider's list (the profile's current names first), else the profile's names. */
function offeredModels(provider: LlmProvider, listing: ModelListing, refused: string): readonly string[] {
  const known = profileFor(provider.kind).models;
  const pool = listing.state === 'listed' && listing.models.length > 0 ? [...known.filter((m) => listing.models.includes(m)), ...listing.models] : [...known];
  return [...new Set(pool)].filter((m) => m !== refused).slice(0, 6);
}
