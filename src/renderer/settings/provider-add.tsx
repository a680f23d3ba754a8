import { useState } from 'react';
import type { ProviderPreset } from '../../shared/ipc/provider-types.ts';
import type { ProviderKind } from '../../shared/provider-kinds.ts';
import { describedBy } from '../components/setting-row.tsx';
import { useI18n } from '../lib/i18n-context.ts';
import { isValidProviderId, suggestProviderId } from './provider-config.ts';
import type { TabProps } from './tab-props.ts';

/** Props of the "add a provider" form. */
export interface AddProviderProps {
  readonly saver: TabProps['saver'];
  readonly presets: readonly ProviderPreset[];
  /** Ids already in the config. */
  readonly taken: readonly string[];
  readonly onAdded: (id: string) => void;
}

/** The preset to add a provider from. */
function PresetRow({ presets, kind, onKind }: { readonly presets: readonly ProviderPreset[]; readonly kind: ProviderKind; readonly onKind: (kind: ProviderKind) => void }) {
  const { t } = useI18n();
  return (
    <div className="row">
      <span className="row-text">
        <label className="row-label" htmlFor="provider-add-preset">
          {t('ai.provider.add.preset')}
        </label>
      </span>
      <select id="provider-add-preset" value={kind} onChange={(e) => onKind(e.currentTarget.value as ProviderKind)}>
        {presets.map((p) => (
          <option key={p.kind} value={p.kind}>
            {p.kind === 'other' ? t('ai.kind.other') : p.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Adds a provider from a preset: its kind, the documented default base URL and the current model names from
 * the provider's profile, under a name the user may change (the API key is stored under it).
 */
export function AddProvider({ saver, presets, taken, onAdded }: AddProviderProps) {
  const { t } = useI18n();
  const [kind, setKind] = useState<ProviderKind>('openai');
  const [id, setId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = id ?? suggestProviderId(kind, taken);
  const preset = presets.find((p) => p.kind === kind);
  const add = async (): Promise<void> => {
    if (!preset) return;
    if (!isValidProviderId(name)) return setProblem(t('ai.provider.add.invalid'));
    if (taken.includes(name)) return setProblem(t('ai.provider.add.taken', { id: name }));
    setBusy(true);
    const ok = await saver.save(`ai_enhance.providers.${name}`, { kind, base_url: preset.defaultBaseURL, models: [...preset.models] });
    setBusy(false);
    if (ok) {
      setProblem(null);
      setId(null);
      onAdded(name);
    }
  };
  // A refusal from main (config validation) is kept by the saver under the new provider's key path.
  const shown = problem ?? saver.errors[`ai_enhance.providers.${name}`] ?? null;
  const idHelp = t('ai.provider.add.id.help');
  return (
    <form
      className="group provider-add"
      aria-label={t('ai.provider.add')}
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <PresetRow
        presets={presets}
        kind={kind}
        onKind={(k) => {
          setKind(k);
          setProblem(null);
        }}
      />
      <div className="row">
        <span className="row-text">
          <label className="row-label" htmlFor="provider-add-id">
            {t('ai.provider.add.id')}
          </label>
          <span className="help" id="provider-add-id-help">
            {idHelp}
          </span>
          {shown ? (
            <span className="field-error" id="provider-add-id-error" role="alert">
              {shown}
            </span>
          ) : null}
        </span>
        <span className="inline">
          <input
            id="provider-add-id"
            type="text"
            className="text provider-add-id"
            spellCheck={false}
            autoComplete="off"
            maxLength={64}
            value={name}
            aria-invalid={shown ? true : undefined}
            aria-describedby={describedBy('provider-add-id', idHelp, shown)}
            onChange={(e) => {
              setId(e.currentTarget.value);
              setProblem(null);
            }}
          />
          <button type="submit" disabled={busy || !preset}>
            {t('ai.provider.add.button')}
          </button>
        </span>
      </div>
    </form>
  );
}
