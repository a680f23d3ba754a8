import type { Config } from '../../shared/config/config-schema.ts';
import { providerSecretName, type KeyMismatch } from '../../shared/secret-names.ts';
import type { PromptLanguage } from './builtin-modes.ts';
import type { LlmProvider } from './llm-client.ts';
import type { StepSettings } from './request-builder.ts';

/** The enhancer's settings and provider, read from the app config (`ai_enhance.*`) and the secret store. */

/** Everything the enhancer reads from the configuration. */
export interface EnhancerSettings extends StepSettings {
  readonly mode: string;
  readonly providerId: string;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxRetries: number;
  /** `ai_enhance.warm_up`: warm the prompt prefix at key-down for the built-in engine and local servers, cloud providers too, or never. */
  readonly warmUp?: 'local' | 'all' | 'off';
}


/** Default deadline of one enhancement (seed: timeout 10 s). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Enhancer settings from the app config (`ai_enhance.*`); `lang` comes from the UI language. */
export function settingsFromConfig(config: Config, lang: PromptLanguage): EnhancerSettings {
  const a = config.ai_enhance;
  return {
    mode: a.mode, providerId: a.default_provider, model: a.default_model, thinking: a.thinking, lang,
    timeoutMs: a.timeout * 1000, connectTimeoutMs: a.connection_timeout * 1000, maxRetries: a.max_retries, maxOutputTokens: a.max_output_tokens,
    history: { enabled: a.conversation_history.enabled, maxEntries: a.conversation_history.max_entries, refreshThreshold: a.conversation_history.refresh_threshold, maxHistoryChars: a.conversation_history.max_history_chars, shareProperNouns: a.conversation_history.share_proper_nouns },
    vocabulary: { enabled: a.vocabulary.enabled, maxLlmEntries: a.vocabulary.max_llm_entries },
    contextNote: a.context_note, warmUp: a.warm_up,
    // The built-in engine's window is its configured context size (unless the user set one for the model).
    ...(a.providers[a.default_provider]?.kind === 'local' ? { contextWindow: a.local.context_size } : {}),
    ...contextWindowOverride(a.context_window, a.default_model),
  };
}

/** `ai_enhance.context_window`: one number for every model, or a number per model name. */
function contextWindowOverride(v: Config['ai_enhance']['context_window'], model: string): { contextWindow?: number } {
  const n = typeof v === 'number' ? v : v?.[model];
  return n !== undefined ? { contextWindow: n } : {};
}

/** What `providerFromConfig` needs from the secret store. */
export interface SecretReader {
  /** The key, only when bound to the server its service points to now. */
  get(name: string): string | undefined;
  /** Set when a key is held but was entered for another server (SecretStore.mismatch). */
  mismatch?(name: string): KeyMismatch | undefined;
}

/** A provider from the config, its key from the secret store (never from config.json). */
export function providerFromConfig(config: Config, secrets: SecretReader | null, id: string): LlmProvider | undefined {
  const p = config.ai_enhance.providers[id];
  if (!p) return undefined;
  const mismatch = secrets?.mismatch?.(providerSecretName(id));
  return {
    id, kind: p.kind, baseURL: p.base_url, apiKey: secrets?.get(providerSecretName(id)),
    ...(p.extra_body ? { extraBody: p.extra_body } : {}), ...(mismatch ? { keyMismatch: mismatch } : {}),
  };
}

