import { useCallback, useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ModeItem } from '../../shared/ipc/settings-types.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Editor of the Markdown mode files: pick a mode, edit its file, save (main validates before writing). */
export function ModesEditor({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [modes, setModes] = useState<readonly ModeItem[]>([]);
  const [id, setId] = useState<string>('');
  const [draft, setDraft] = useState<string | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const load = useCallback(() => {
    bridge.modes.list().then(
      (m) => {
        setModes(m);
        setId((cur) => cur || (m[0]?.id ?? ''));
      },
      (e: unknown) => setStatus({ ok: false, text: errorText(e) }),
    );
  }, [bridge]);
  useEffect(load, [load]);
  const mode = modes.find((m) => m.id === id);
  const text = draft ?? mode?.text ?? '';
  return (
    <div className="group">
      <div className="row">
        <label className="row-label grow" htmlFor="mode-select">
          {t('modes.edit')}
        </label>
        <select
          id="mode-select"
          value={id}
          onChange={(e) => {
            setId(e.currentTarget.value);
            setDraft(null);
            setStatus(null);
          }}
        >
          {modes.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label === m.id ? m.id : `${m.label} (${m.id})`}
            </option>
          ))}
        </select>
      </div>
      <div className="row-block">
        <span className="help" id="mode-text-help">
          {t('modes.help', { id: id || '…' })}
        </span>
        {mode?.problem ? <span className="field-error">{t('modes.problem', { message: mode.problem })}</span> : null}
        <textarea
          id="mode-text"
          aria-label={t('modes.edit')}
          aria-describedby="mode-text-help"
          className="code"
          spellCheck={false}
          value={text}
          maxLength={50_000}
          onChange={(e) => {
            setDraft(e.currentTarget.value);
            setStatus(null);
          }}
        />
        <div className="inline">
          <button
            type="button"
            className="primary"
            disabled={draft === null || !id}
            onClick={() =>
              bridge.modes.save({ id, text }).then(
                () => {
                  setDraft(null);
                  setStatus({ ok: true, text: t('modes.saved', { id }) });
                  load();
                },
                (e: unknown) => setStatus({ ok: false, text: errorText(e) }),
              )
            }
          >
            {t('common.save')}
          </button>
          {status ? (
            <span className={status.ok ? 'status status-set' : 'field-error'} role={status.ok ? 'status' : 'alert'} data-testid="mode-status">
              {status.text}
            </span>
          ) : null}
        </div>
      </div>
    </div>
  );
}
