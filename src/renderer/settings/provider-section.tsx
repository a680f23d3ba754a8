import { useEffect, useState } from 'react';
import type { ProviderPreset } from '../../shared/ipc/provider-types.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';
import '../styles/providers.css';
import { AddProvider } from './provider-add.tsx';
import { defaultProviderOf, modelOf, providersOf } from './provider-config.ts';
import { ProviderEditor } from './provider-editor.tsx';
import type { TabProps } from './tab-props.ts';

/**
 * The provider picker of Settings › AI: every provider in the config (the one dictations use marked), the
 * chosen one's own settings, and "add a provider" from the presets. Verify and the model list go through
 * main, so API keys never reach this window.
 */
export function ProviderSection({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  const [presets, setPresets] = useState<readonly ProviderPreset[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const providers = providersOf(config);
  const def = defaultProviderOf(config);
  const [picked, setPicked] = useState<string>(def);
  const selected = providers.find((p) => p.id === picked) ?? providers.find((p) => p.id === def) ?? providers[0];

  useEffect(() => {
    let live = true;
    bridge.providers.presets().then(
      (p) => live && setPresets(p),
      (e: unknown) => live && setLoadError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [bridge]);

  const labelOf = (kind: string): string => (kind === 'other' ? t('ai.kind.other') : (presets.find((p) => p.kind === kind)?.label ?? kind));
  const remove = async (id: string): Promise<void> => {
    const rest = Object.fromEntries(providers.filter((p) => p.id !== id).map((p) => [p.id, { kind: p.kind, base_url: p.baseURL, models: [...p.models], ...(p.extraBody ? { extra_body: p.extraBody } : {}) }]));
    if (!(await saver.save('ai_enhance.providers', rest))) return;
    setPicked(def);
    // Its key goes with it; a provider added later under the same name starts without one.
    await bridge.secrets.delete({ name: `provider:${id}` }).catch(() => undefined);
  };

  return (
    <>
      <p className="help provider-uses" data-testid="provider-uses">
        {t('ai.providers.uses', { provider: def, model: modelOf(config, def) })}
      </p>
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : null}
      <fieldset className="group provider-list">
        <legend className="sr-only">{t('ai.providers.list')}</legend>
        {providers.map((p) => (
          <label key={p.id} className="row provider-item" data-testid={`provider-item-${p.id}`}>
            <input type="radio" name="provider" value={p.id} checked={p.id === selected?.id} onChange={() => setPicked(p.id)} />
            <span className="row-text">
              <span className="row-label">{p.id}</span>
              <span className="help">
                {labelOf(p.kind)} · {modelOf(config, p.id) || '—'}
              </span>
            </span>
            {p.id === def ? <span className="status status-set">{t('ai.providers.default')}</span> : null}
          </label>
        ))}
      </fieldset>
      {selected ? (
        <ProviderEditor
          key={selected.id}
          config={config}
          saver={saver}
          bridge={bridge}
          entry={selected}
          presets={presets}
          isDefault={selected.id === def}
          onDelete={() => void remove(selected.id)}
        />
      ) : null}
      <h3 className="provider-add-title">{t('ai.provider.add')}</h3>
      <AddProvider saver={saver} presets={presets} taken={providers.map((p) => p.id)} onAdded={setPicked} />
    </>
  );
}
