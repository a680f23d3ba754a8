/**
 * The built-in LLM engine's GGUF models in the model manager: the LLM catalog (enhance/local-llm/llm-catalog.ts)
 * joined to the speech catalog, so the same `models:*` channels download them (progress, pause/resume, mirror,
 * checksums), and what a finished download changes: the `local` provider lists the file, and when it is the
 * default provider its model becomes the file, so the next dictation uses what was just downloaded.
 */
import { MODEL_CATALOG, type CatalogEntry } from '../asr/model-catalog.ts';
import { LLM_CATALOG, findLlmModel } from '../enhance/local-llm/llm-catalog.ts';
import type { ConfigStore } from '../settings/config-store.ts';

/** The LLM models as model-manager catalog entries (installed as models/llm/<file>). */
export function llmCatalogEntries(): CatalogEntry[] {
  return LLM_CATALOG.map((e) => ({ name: e.name, approxBytes: e.approxBytes, sha1: null, englishOnly: false, quantized: true, gguf: { repo: e.repo, file: e.file, sha256: e.sha256 } }));
}

/** Speech models and LLM models: the catalog of the app's model manager. */
export const APP_MODEL_CATALOG: readonly CatalogEntry[] = [...MODEL_CATALOG, ...llmCatalogEntries()];

/** The provider id a downloaded model is registered under when the config has no `local` provider yet. */
export const LOCAL_PROVIDER_ID = 'local';

/**
 * After LLM model `name` is installed: the first provider of kind `local` (or a new `local` one) lists its
 * file first, and when that provider is the default one, `default_model` becomes the file. Returns false when
 * `name` is not an LLM model (a speech model: nothing to do here).
 */
export async function llmModelInstalled(config: Pick<ConfigStore, 'get' | 'set'>, name: string): Promise<boolean> {
  const entry = findLlmModel(name);
  if (entry === undefined) return false;
  const a = config.get().ai_enhance;
  const id = Object.entries(a.providers).find(([, p]) => p.kind === 'local')?.[0] ?? LOCAL_PROVIDER_ID;
  const existing = a.providers[id];
  const models = [entry.file, ...(existing?.models ?? []).filter((m) => m !== entry.file)];
  await config.set(`ai_enhance.providers.${id}`, { ...(existing ?? { kind: 'local', base_url: 'http://localhost/' }), models });
  if (a.default_provider === id) await config.set('ai_enhance.default_model', entry.file);
  return true;
}
