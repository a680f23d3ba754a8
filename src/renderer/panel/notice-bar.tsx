import { useId, useState } from 'react';
import { shortNoticeText } from '../../shared/notices/notice-short.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { noticeWords } from './notice-words.ts';
import { headlineNotice, type PanelNotice } from './panel-state.ts';

/** Props of the panel's notice bar. */
export interface NoticeBarProps {
  readonly notices: readonly PanelNotice[];
  /** An action of the panel that failed (bridge error), shown like a notice. */
  readonly failure: string | null;
  readonly labelOf: (mode: string) => string;
  readonly onDismiss: () => void;
}

/**
 * The panel's notices in one line (the most severe one, ×n when it repeated, "+k more"), expandable
 * to the full list with each notice's plain-language cause and technical detail. One line keeps the
 * final text in view at the panel's smallest size; identical notices are merged by the reducer.
 */
export function NoticeBar({ notices, failure, labelOf, onDismiss }: NoticeBarProps) {
  const { t, lang } = useI18n();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const items = notices.map((n) => ({ n, words: noticeWords(lang, n.notice, labelOf) }));
  const failureItem = failure === null ? null : { level: 'error' as const, headline: t('panel.actionFailed'), detail: failure };
  const head = failureItem ?? (() => {
    const top = headlineNotice(notices);
    const item = items.find((i) => i.n === top);
    // The one-line form: the short text where there is one (the list below has the whole notice).
    const line = item ? (shortNoticeText(lang, item.n.notice, { where: 'panel', panel: true }) ?? item.words.headline) : '';
    return item ? { level: item.n.level, headline: line, detail: null, count: item.n.count } : null;
  })();
  if (head === null) return null;
  const total = items.length + (failureItem ? 1 : 0);
  const count = 'count' in head ? head.count : 1;
  return (
    <section className={`notice-bar notice-${head.level}`} aria-label={t('panel.notices')} data-testid="panel-notices">
      <div className="notice-line">
        <p className="notice-head" role={head.level === 'error' ? 'alert' : 'status'} title={head.headline}>
          {head.headline}
        </p>
        {count > 1 ? (
          <span className="notice-count" aria-label={t('panel.notice.repeated', { count })}>
            {t('panel.notice.count', { count })}
          </span>
        ) : null}
        <button type="button" className="link-button" aria-expanded={open} aria-controls={listId} data-testid="panel-notices-toggle" onClick={() => setOpen(!open)}>
          {open ? t('panel.notices.less') : total > 1 ? t('panel.notices.more', { count: total }) : t('panel.notices.details')}
        </button>
        <button type="button" className="link-button" onClick={() => (setOpen(false), onDismiss())} data-testid="panel-notices-dismiss">
          {t('panel.dismiss')}
        </button>
      </div>
      {open ? (
        <ul className="notice-list" id={listId} data-testid="panel-notice-list" tabIndex={0} aria-label={t('panel.notices')}>
          {failureItem ? (
            <li className="notice notice-error">
              <p>{failureItem.headline}</p>
              <p className="notice-detail">{t('panel.notice.detail', { detail: failureItem.detail })}</p>
            </li>
          ) : null}
          {[...items].reverse().map(({ n, words }, i) => (
            <li key={i} className={`notice notice-${n.level}`}>
              <p>
                {words.headline}
                {n.count > 1 ? <span className="notice-count"> {t('panel.notice.count', { count: n.count })}</span> : null}
              </p>
              {words.cause !== null ? <p className="notice-cause">{words.cause}</p> : null}
              {words.detail !== null ? <p className="notice-detail">{t('panel.notice.detail', { detail: words.detail })}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
