import { useEffect, useRef, useState } from 'react';
import type { ProviderModelList, ProviderPreset } from '../../shared/ipc/provider-types.ts';
import { credentialPathIn, urlHoldsCredential } from '../../shared/redact.ts';
import { SelectField } from '../components/select-field.tsx';
import { TextAreaField } from '../components/text-area-field.tsx';
import { TextField } from '../components/text-field.tsx';
import { errorText } from '../lib/errors.ts';
import { useI18n, type Translate } from '../lib/i18n-context.ts';
import { ApiKeyField } from './api-key-field.tsx';
import { extraBodyText, modelOf, modelSuggestions, modelsWithChosen, parseExtraBody, type ProviderEntry } from './provider-config.ts';
import { ModelField } from './provider-model-field.tsx';
import { VerifyRow } from './provider-verify.tsx';
import type { TabProps } from './tab-props.ts';

/** Props of one provider's editor. */
export interface ProviderEditorProps extends TabProps {
  readonly entry: ProviderEntry;
  readonly presets: readonly ProviderPreset[];
  readonly isDefault: boolean;
  /** Deletes the provider (not offered for the default one). */
  readonly onDelete: () => void;
}

type Listing = ProviderModelList | 'loading';

/**
 * One provider's own settings — type, base URL, model (from its own list), extra_body, API key — saved under
 * `ai_enhance.providers.<id>` only, so editing one never touches another. Mounted per provider (keyed by id):
 * a draft typed for one provider can never be committed to the next.
 */
export function ProviderEditor({ config, saver, bridge, entry, presets, isDefault, onDelete }: ProviderEditorProps) {
  const { t } = useI18n();
  const { id } = entry;
  const at = (field: string): string => `ai_enhance.providers.${id}.${field}`;
  // Keyed by what the list is read from, so a stale list shows as loading until the new one arrives.
  const source = `${entry.kind}\u0000${entry.baseURL}`;
  const listing = useProviderModels(bridge, id, source);
  // A key typed into the URL or extra_body is refused here, in the UI language, before it reaches config.json.
  const [urlError, setUrlError] = useState<string | null>(null);
  // Saves started by this editor; Verify waits for them (clicking Verify commits the field being edited first).
  const { track, settled } = usePendingSaves();
  const save = (keyPath: string, value: Parameters<typeof saver.save>[1]): Promise<boolean> => track(saver.save(keyPath, value));

  const preset = presets.find((p) => p.kind === entry.kind);
  const model = modelOf(config, id);
  const listed = listing === 'loading' ? [] : listing.models;
  const modelHelp = modelHelpText(listing, t);

  const saveModel = async (m: string): Promise<boolean> => {
    if (!(await save(at('models'), modelsWithChosen(entry.models, m)))) return false;
    // The default provider's model is `default_model`: what dictations use.
    return isDefault ? save('ai_enhance.default_model', m) : true;
  };
  const makeDefault = (): Promise<void> => makeProviderDefault(saver, id, entry.models[0]);

  return (
    <div className="group provider-editor" data-testid="provider-editor" data-provider={id}>
      <SelectField
        id="provider-kind"
        label={t('ai.provider.kind')}
        help={t('ai.provider.kind.help')}
        value={entry.kind}
        options={presets.map((p) => ({ value: p.kind, label: p.kind === 'other' ? t('ai.kind.other') : p.label }))}
        error={saver.errors[at('kind')]}
        onChange={(v) => save(at('kind'), v)}
      />
      <TextField
        id="provider-url"
        label={t('ai.provider.url', { provider: id })}
        maxLength={2048}
        value={entry.baseURL}
        error={urlError ?? saver.errors[at('base_url')]}
        onCommit={async (v) => {
          const keyInside = urlHoldsCredential(v.trim());
          setUrlError(keyInside ? t('ai.provider.url.keyInside') : null);
          return keyInside ? false : save(at('base_url'), v.trim());
        }}
      />
      <ModelField
        id="provider-model"
        label={t('ai.provider.modelOf', { provider: id })}
        help={modelHelp}
        value={model}
        suggestions={modelSuggestions(listed, preset?.models ?? [], entry.models)}
        error={saver.errors[at('models')] ?? (isDefault ? saver.errors['ai_enhance.default_model'] : undefined)}
        onCommit={(m) => track(saveModel(m))}
      />
      {/* Provider-specific request fields: for people who know the provider's API, so out of the way. */}
      <ExtraBodyAdvanced extraBody={entry.extraBody} serverError={saver.errors[at('extra_body')]} onSave={(parsed) => save(at('extra_body'), parsed)} />
      <ApiKeyField bridge={bridge} provider={id} server={entry.baseURL} />
      <VerifyRow bridge={bridge} providerId={id} settled={settled} />
      <EditorActions id={id} isDefault={isDefault} onMakeDefault={() => void track(makeDefault())} onDelete={onDelete} />
    </div>
  );
}

/** The provider's own model list, read again when what it is read from (`source`) changes; 'loading' until then. */
function useProviderModels(bridge: TabProps['bridge'], id: string, source: string): Listing {
  const [read, setRead] = useState<{ readonly source: string; readonly list: ProviderModelList } | null>(null);
  useEffect(() => {
    let live = true;
    bridge.providers.models({ providerId: id }).then(
      (list) => live && setRead({ source, list }),
      (e: unknown) => live && setRead({ source, list: { state: 'failed', models: [], problem: errorText(e) } }),
    );
    return () => {
      live = false;
    };
  }, [bridge, id, source]);
  return read !== null && read.source === source ? read.list : 'loading';
}

/** What the model field says about the provider's list: loading, how many listed, none, or why not. */
function modelHelpText(listing: Listing, t: Translate): string {
  return listing === 'loading'
    ? t('ai.provider.model.loading')
    : listing.state === 'listed'
      ? t('ai.provider.model.listed', { count: listing.models.length })
      : listing.state === 'no-list'
        ? t('ai.provider.model.noList')
        : t('ai.provider.model.failed', { message: listing.problem ?? '' });
}

/** Makes provider `id` the default, with its first model (when it has one) as the default model. */
async function makeProviderDefault(saver: TabProps['saver'], id: string, firstModel: string | undefined): Promise<void> {
  if (!(await saver.save('ai_enhance.default_provider', id))) return;
  if (firstModel !== undefined) await saver.save('ai_enhance.default_model', firstModel);
}

/** Tracks the saves started by an editor: `settled` resolves once all of them have (failed or not). */
function usePendingSaves(): { readonly track: <T>(p: Promise<T>) => Promise<T>; readonly settled: () => Promise<unknown> } {
  const pending = useRef<Promise<unknown>>(Promise.resolve());
  const track = <T,>(p: Promise<T>): Promise<T> => {
    pending.current = Promise.all([pending.current, p]).catch(() => undefined);
    return p;
  };
  return { track, settled: () => pending.current };
}

/** Make default (not for the default provider) and Delete (refused for the default one, with why). */
function EditorActions({ id, isDefault, onMakeDefault, onDelete }: { readonly id: string; readonly isDefault: boolean; readonly onMakeDefault: () => void; readonly onDelete: () => void }) {
  const { t } = useI18n();
  return (
    <div className="row">
      <span className="row-text">
        {isDefault ? (
          <span className="help" id="provider-delete-help">
            {t('ai.provider.delete.default')}
          </span>
        ) : null}
      </span>
      <span className="inline">
        {isDefault ? null : (
          <button type="button" className="primary" onClick={onMakeDefault}>
            {t('ai.provider.makeDefault')}
          </button>
        )}
        <button
          type="button"
          className="danger-outline"
          disabled={isDefault}
          aria-label={t('ai.provider.delete.label', { provider: id })}
          aria-describedby={isDefault ? 'provider-delete-help' : undefined}
          onClick={onDelete}
        >
          {t('ai.provider.delete')}
        </button>
      </span>
    </div>
  );
}

/** extra_body under "Advanced": JSON checked here (not an object, or a key inside it, is refused before it reaches config.json). */
function ExtraBodyAdvanced({ extraBody, serverError, onSave }: {
  readonly extraBody: ProviderEntry['extraBody'];
  readonly serverError: string | undefined;
  readonly onSave: (parsed: NonNullable<ReturnType<typeof parseExtraBody>>) => Promise<boolean>;
}) {
  const { t } = useI18n();
  const [extraError, setExtraError] = useState<string | null>(null);
  return (
    <details className="advanced advanced-in-card" data-testid="provider-advanced">
      <summary>{t('settings.advanced')}</summary>
      <TextAreaField
        id="provider-extra-body"
        label={t('ai.provider.extraBody')}
        help={t('ai.provider.extraBody.help')}
        maxLength={20_000}
        value={extraBodyText(extraBody)}
        error={extraError ?? serverError}
        onCommit={async (text) => {
          const parsed = parseExtraBody(text);
          const keyAt = parsed === null ? null : credentialPathIn(parsed);
          setExtraError(parsed === null ? t('ai.provider.extraBody.invalid') : keyAt !== null ? t('ai.provider.extraBody.keyInside', { field: keyAt }) : null);
          return parsed === null || keyAt !== null ? false : onSave(parsed);
        }}
      />
    </details>
  );
}
