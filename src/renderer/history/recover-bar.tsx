import { useCallback, useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { RecoverableSession } from '../../shared/ipc/dictation-types.ts';
import { formatTimestamp } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * Dictations a crash or failure left on disk (audio journaled), with Retry / Discard. Hidden when
 * there are none, or when this window set-up has no dictation service (the call fails cleanly then).
 */
export function RecoverBar({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [sessions, setSessions] = useState<readonly RecoverableSession[]>([]);
  const load = useCallback(() => {
    bridge.dictation.recoverable().then(setSessions, () => setSessions([]));
  }, [bridge]);
  useEffect(load, [load]);
  if (sessions.length === 0) return null;
  const act = (id: string, action: 'finish' | 'discard') => {
    bridge.dictation.recover({ id, action }).then(load, load);
  };
  return (
    <section className="recover" aria-label={t('history.recover.title')}>
      <h2>{t('history.recover.title')}</h2>
      <ul>
        {sessions.map((s) => (
          <li key={s.id}>
            <span>{t('history.recover.item', { time: formatTimestamp(s.createdAt), seconds: s.durationSeconds.toFixed(1), stage: t(`history.stage.${s.stage}`) })}</span>
            {s.asrText ? <span className="help"> — {s.asrText}</span> : null}
            <button type="button" onClick={() => act(s.id, 'finish')}>
              {t('history.recover.retry')}
            </button>
            <button type="button" onClick={() => act(s.id, 'discard')}>
              {t('history.recover.discard')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
