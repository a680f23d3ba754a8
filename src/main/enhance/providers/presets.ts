import { PROVIDER_KINDS } from '../../../shared/provider-kinds.ts';
import type { ProviderPreset } from '../../../shared/ipc/provider-types.ts';
import { PROFILES } from './registry.ts';

/**
 * The provider presets Settings offers ("Add provider"), read from the profiles so the label, default base URL,
 * current model names and cache rule have one source: each profile, citing its provider's documentation.
 */

/** One preset per kind, in the order Settings lists them. */
export function providerPresets(): readonly ProviderPreset[] {
  return PROVIDER_KINDS.map((kind) => {
    const p = PROFILES[kind];
    const c = p.cache(p.models[0] ?? '');
    return {
      kind,
      label: p.label,
      defaultBaseURL: p.defaultBaseURL,
      models: [...p.models],
      docs: [...p.docs],
      cache: { mode: c.mode, minTokens: c.minTokens, stepTokens: c.stepTokens, note: c.note },
    };
  });
}
