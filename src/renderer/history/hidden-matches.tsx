import type { HistoryFilters } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Says plainly what the time range and the archive switch hide (how many matches), with a way to show them. */
export function HiddenMatches({ filters, hidden, onWiden }: { readonly filters: HistoryFilters; readonly hidden: number; readonly onWiden: () => void }) {
  const { t } = useI18n();
  const count = hidden.toLocaleString();
  const range = filters.time === 'all' ? '' : t(`history.range.${filters.time}`);
  const text =
    filters.time === 'all'
      ? t('history.hidden.archives', { count })
      : filters.archived
        ? t('history.hidden.time', { count, range })
        : t('history.hidden.both', { count, range });
  return (
    <p className="hidden-matches" role="status" data-testid="history-hidden">
      <span>{text}</span>
      <button type="button" className="link" onClick={onWiden}>
        {t('history.hidden.show')}
      </button>
    </p>
  );
}
