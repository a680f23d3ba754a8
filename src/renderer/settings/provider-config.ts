/**
 * Reads of `ai_enhance.providers` from the config snapshot, and the pure decisions of the provider picker:
 * which model a provider's dictations use, the models list after choosing one, a free id for a new provider.
 * Pure (no React, no bridge), so it is tested directly.
 */
import type { JsonValue } from '../../shared/ipc/json-value.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { isProviderKind, type ProviderKind } from '../../shared/provider-kinds.ts';
import { stringAt, valueAt } from '../lib/config-view.ts';

/** One provider of the config, as the picker shows it. */
export interface ProviderEntry {
  readonly id: string;
  readonly kind: ProviderKind;
  readonly baseURL: string;
  readonly models: readonly string[];
  /** The provider's extra_body, or null when it has none. */
  readonly extraBody: { readonly [k: string]: JsonValue } | null;
}

const isObject = (v: JsonValue | undefined): v is { readonly [k: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every provider in the config, in the file's order. */
export function providersOf(config: ConfigSnapshot | null): readonly ProviderEntry[] {
  const all = valueAt(config, 'ai_enhance.providers');
  if (!isObject(all)) return [];
  return Object.entries(all).flatMap(([id, v]) => {
    if (!isObject(v)) return [];
    const models = Array.isArray(v.models) ? v.models.filter((m): m is string => typeof m === 'string') : [];
    return [{ id, kind: isProviderKind(v.kind) ? v.kind : 'other', baseURL: typeof v.base_url === 'string' ? v.base_url : '', models, extraBody: isObject(v.extra_body) ? v.extra_body : null }];
  });
}

/** The provider dictations use. */
export function defaultProviderOf(config: ConfigSnapshot | null): string {
  return stringAt(config, 'ai_enhance.default_provider', 'ollama');
}

/** The model a provider's dictations (and its Verify) use: `default_model` for the default provider, else its first model. */
export function modelOf(config: ConfigSnapshot | null, id: string): string {
  if (id === defaultProviderOf(config)) return stringAt(config, 'ai_enhance.default_model', '');
  return providersOf(config).find((p) => p.id === id)?.models[0] ?? '';
}

/** The provider's models with `model` first (the chosen one), without duplicates. */
export function modelsWithChosen(models: readonly string[], model: string): string[] {
  return [model, ...models.filter((m) => m !== model)];
}

/** A provider id is a config key and part of a secret name (config-schema's rule). */
export function isValidProviderId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(id);
}

/** A free id for a new provider of `kind`: the kind itself, else kind-2, kind-3… */
export function suggestProviderId(kind: ProviderKind, taken: readonly string[]): string {
  if (!taken.includes(kind)) return kind;
  for (let i = 2; ; i++) if (!taken.includes(`${kind}-${i}`)) return `${kind}-${i}`;
}

/** The extra_body text shown in the editor ('' when none). */
export function extraBodyText(extra: ProviderEntry['extraBody']): string {
  return extra === null || Object.keys(extra).length === 0 ? '' : JSON.stringify(extra, null, 2);
}

/** Parses the editor's extra_body text: an object (empty text: {}), or null when it is not a JSON object. */
export function parseExtraBody(text: string): { readonly [k: string]: JsonValue } | null {
  if (text.trim() === '') return {};
  try {
    const v = JSON.parse(text) as JsonValue;
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** Model suggestions: the provider's own list, then the preset's current names, then the configured ones. */
export function modelSuggestions(listed: readonly string[], preset: readonly string[], configured: readonly string[]): string[] {
  return [...new Set([...listed, ...preset, ...configured])];
}
