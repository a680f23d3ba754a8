import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { SecretsStatus } from '../../shared/ipc/wire-types.ts';
import { describedBy, SettingRow } from '../components/setting-row.tsx';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the API key field of one provider. */
export interface ApiKeyFieldProps {
  readonly bridge: TingxieBridge;
  readonly provider: string;
  /** Another secret than `provider:<provider>` (e.g. `asr:remote`), with its own label. */
  readonly secretName?: string;
  readonly label?: string;
  /** The service's base URL: when it changes the status is read again (a key bound to the old server must be re-entered). */
  readonly server?: string;
}

/**
 * Write-only API key: the window only ever learns whether a key is set (secrets:status lists names,
 * never values). What the user types lives in this component until Save and is cleared right after.
 */
export function ApiKeyField({ bridge, provider, secretName, label, server }: ApiKeyFieldProps) {
  const { t } = useI18n();
  const name = secretName ?? `provider:${provider}`;
  const [status, setStatus] = useState<SecretsStatus | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    bridge.secrets.status().then(
      (s) => live && setStatus(s),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [bridge, server]);

  const run = async (call: () => Promise<SecretsStatus>): Promise<void> => {
    setBusy(true);
    try {
      setStatus(await call());
      setDraft('');
      setError(null);
    } catch (e) {
      setError(t('error.saveFailed', { message: errorText(e) }));
    } finally {
      setBusy(false);
    }
  };

  const entry = status?.secrets.find((s) => s.name === name);
  const isSet = entry !== undefined;
  // Held, but entered for another server than the one configured now: main does not send it (secrets.ts `mismatch`).
  const savedFor = entry?.savedFor;
  // The provider key keeps the historical ids; another secret gets its own (two fields may share a window).
  const id = secretName ? `key-${secretName.replace(/[^A-Za-z0-9]/g, '-')}` : 'api-key';
  const help = status?.backend === 'memory' ? `${t('ai.key.help')} ${t('ai.key.backend.memory')}` : t('ai.key.help');
  return (
    <SettingRow id={id} label={label ?? t('ai.key.label', { provider })} help={help} error={error} layout="block">
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (draft !== '') void run(() => bridge.secrets.set({ name, value: draft }));
        }}
      >
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('ai.key.placeholder')}
          value={draft}
          aria-describedby={describedBy(id, help, error)}
          onChange={(e) => setDraft(e.currentTarget.value)}
        />
        <button type="submit" className="primary" disabled={busy || draft === ''}>
          {t('common.save')}
        </button>
        <button type="button" disabled={busy || !isSet} onClick={() => void run(() => bridge.secrets.delete({ name }))}>
          {t('common.remove')}
        </button>
        <span className={isSet && savedFor === undefined ? 'status status-set' : 'status'} data-testid={`${id}-status`} aria-live="polite">
          {status === null ? '' : savedFor !== undefined ? t('ai.key.reenter', { server: savedFor }) : isSet ? t('ai.key.set') : t('ai.key.notSet')}
        </span>
      </form>
    </SettingRow>
  );
}
