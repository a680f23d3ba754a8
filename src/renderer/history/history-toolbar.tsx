import type { RefObject } from 'react';
import { DEFAULT_FILTERS, isFiltered, TIME_RANGES, type HistoryFilters, type TimeRange } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the search/time/archive toolbar. */
export interface HistoryToolbarProps {
  readonly filters: HistoryFilters;
  readonly searchText: string;
  readonly searchRef: RefObject<HTMLInputElement | null>;
  readonly onSearchText: (text: string) => void;
  readonly onFilters: (next: HistoryFilters) => void;
}

/** Search box, time range, "Include archived" and "Clear filters" (every control labelled). */
export function HistoryToolbar({ filters, searchText, searchRef, onSearchText, onFilters }: HistoryToolbarProps) {
  const { t } = useI18n();
  return (
    <div className="toolbar" role="search">
      <input
        ref={searchRef}
        id="history-search"
        type="search"
        className="search"
        aria-label={t('history.search')}
        placeholder={t('history.search.placeholder')}
        value={searchText}
        maxLength={200}
        onChange={(e) => onSearchText(e.currentTarget.value)}
      />
      <select
        id="history-time"
        aria-label={t('history.time')}
        value={filters.time}
        onChange={(e) => onFilters({ ...filters, time: e.currentTarget.value as TimeRange })}
      >
        {TIME_RANGES.map((r) => (
          <option key={r} value={r}>
            {t(`history.time.${r}`)}
          </option>
        ))}
      </select>
      <label className="check">
        <input type="checkbox" checked={filters.archived} onChange={(e) => onFilters({ ...filters, archived: e.currentTarget.checked })} />
        {t('history.archived')}
      </label>
      <button
        type="button"
        disabled={!isFiltered(filters) && searchText === ''}
        onClick={() => {
          onSearchText('');
          onFilters(DEFAULT_FILTERS);
        }}
      >
        {t('history.clear')}
      </button>
    </div>
  );
}
