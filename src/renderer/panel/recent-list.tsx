import { useI18n } from '../lib/i18n-context.ts';
import { clockTime } from '../lib/panel-format.ts';
import type { RecentPreview } from './panel-state.ts';

/** The last previews of this app session; choosing one reopens it in the panel. */
export function RecentList({ recent, labelOf, onReopen }: { readonly recent: readonly RecentPreview[]; readonly labelOf: (mode: string) => string; readonly onReopen: (sessionId: string) => void }) {
  const { t, lang } = useI18n();
  return (
    <section className="panel-section" aria-label={t('panel.recent.title')} data-testid="panel-recent">
      <h2 className="panel-label">{t('panel.recent.title')}</h2>
      {recent.length === 0 ? (
        <p className="help">{t('panel.recent.none')}</p>
      ) : (
        <ul className="recent-list">
          {recent.map((r) => (
            <li key={r.sessionId}>
              <button type="button" className="recent-item" onClick={() => onReopen(r.sessionId)}>
                <span className="recent-meta">{t('panel.recent.item', { time: clockTime(r.at, lang), mode: labelOf(r.mode), outcome: t(`panel.outcome.${r.outcome}`) })}</span>
                <span className="recent-text">{r.text}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
