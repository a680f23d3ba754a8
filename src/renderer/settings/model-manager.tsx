import { useCallback, useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ModelItem } from '../../shared/ipc/settings-types.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** `1.2 GB`, `148 MB`. */
export function formatBytes(n: number | null): string {
  if (n === null) return '—';
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${Math.round(n / 1024 ** 2)} MB`;
  return `${Math.max(1, Math.round(n / 1024))} KB`;
}

/** The model manager: catalog with sizes, download with a progress bar (pushed by main as `models:progress`), cancel, delete. */
export function ModelManager({ bridge, onChanged }: { readonly bridge: TingxieBridge; readonly onChanged?: (models: readonly ModelItem[]) => void }) {
  const { t } = useI18n();
  const [models, setModels] = useState<readonly ModelItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    bridge.models.list().then(
      (m) => {
        setModels(m);
        onChanged?.(m);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [bridge, onChanged]);
  useEffect(load, [load]);
  useEffect(
    () =>
      bridge.on.modelsProgress(({ name, download }) => {
        // A finished download changes the installed size and state: re-read the list then.
        if (download.state !== 'downloading') load();
        else setModels((list) => list.map((m) => (m.name === name ? { ...m, download } : m)));
      }),
    [bridge, load],
  );
  const act = (p: Promise<unknown>) => p.then(load, (e: unknown) => setError(errorText(e)));

  return (
    <div className="group models" data-testid="models">
      {error ? <p className="field-error row">{error}</p> : null}
      {models.map((m) => {
        const d = m.download;
        return (
          <div className="row" key={m.name}>
            <span className="row-text">
              <span className="row-label">{m.name}</span>
              <span className="help">
                {m.installed ? t('speech.models.installed', { size: formatBytes(m.bytes) }) : t('speech.models.available', { size: formatBytes(m.bytes) })}
                {m.englishOnly ? ` · ${t('speech.models.en')}` : ''}
              </span>
              {d?.state === 'downloading' ? (
                <progress
                  aria-label={t('speech.models.progress', { name: m.name })}
                  max={d.total ?? undefined}
                  value={d.total ? d.received : undefined}
                />
              ) : null}
              {d?.state === 'failed' ? (
                <span className="field-error" role="alert">
                  {t('speech.models.failed', { message: d.message })}
                </span>
              ) : null}
            </span>
            {d?.state === 'downloading' ? (
              <button type="button" onClick={() => void act(bridge.models.cancel({ name: m.name }))}>
                {t('speech.models.cancel')}
              </button>
            ) : m.installed ? (
              <button type="button" aria-label={`${t('speech.models.delete')} ${m.name}`} onClick={() => void act(bridge.models.delete({ name: m.name }))}>
                {t('speech.models.delete')}
              </button>
            ) : (
              <button type="button" aria-label={`${t('speech.models.download')} ${m.name}`} onClick={() => void act(bridge.models.download({ name: m.name }))}>
                {t('speech.models.download')}
              </button>
            )}
          </div>
        );
      })}
    </div>
  );
}
