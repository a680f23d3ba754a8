import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { stringAt } from '../lib/config-view.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { RecordsView } from './records-view.tsx';
import { StatsView } from './stats-view.tsx';

type View = 'records' | 'stats';
const views: readonly View[] = ['records', 'stats'];

/** The history window: the History Browser and the usage statistics, in the UI language. */
export function HistoryApp({ bridge }: { readonly bridge: TingxieBridge }) {
  const { config } = useConfig(bridge);
  const language = resolveLanguage(stringAt(config, 'ui.language', 'system'), navigator.language);
  return (
    <I18nProvider language={language}>
      <HistoryBody bridge={bridge} />
    </I18nProvider>
  );
}

function HistoryBody({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [view, setView] = useState<View>('records');
  const refs = useRef(new Map<View, HTMLButtonElement>());
  useEffect(() => {
    document.title = t('history.title');
  }, [t]);
  // WAI-ARIA tabs: ←/→ move between the two views, one tab stop.
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const next = views[(views.indexOf(view) + 1) % views.length] ?? 'records';
    setView(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div className="history">
      <header className="history-head">
        <h1>{t('history.title')}</h1>
        <div role="tablist" aria-label={t('history.views')} className="view-tabs" onKeyDown={onKey}>
          {views.map((v) => (
            <button
              key={v}
              ref={(el) => {
                if (el) refs.current.set(v, el);
              }}
              type="button"
              role="tab"
              id={`view-${v}`}
              aria-selected={view === v}
              aria-controls={`view-panel-${v}`}
              tabIndex={view === v ? 0 : -1}
              onClick={() => setView(v)}
            >
              {t(`history.view.${v}`)}
            </button>
          ))}
        </div>
      </header>
      <main role="tabpanel" id={`view-panel-${view}`} aria-labelledby={`view-${view}`} className="history-main">
        {view === 'records' ? <RecordsView bridge={bridge} /> : <StatsView bridge={bridge} />}
      </main>
    </div>
  );
}
