import type { FacetCounts } from '../../shared/history/query.ts';
import { shortModel, toggleTag, type HistoryFilters, type TagGroup } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the tag row. */
export interface TagRowProps {
  readonly filters: HistoryFilters;
  readonly facets: FacetCounts | null;
  readonly onFilters: (next: HistoryFilters) => void;
}

const MAX_PER_GROUP = 8;

/** The tag values to show: the busiest ones, plus any the user selected (so a selection never hides). */
function values(counts: Readonly<Record<string, number>>, selected: readonly string[]): [string, number][] {
  const sorted = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const top = sorted.slice(0, MAX_PER_GROUP);
  for (const s of selected) if (!top.some(([v]) => v === s)) top.push([s, counts[s] ?? 0]);
  return top;
}

/** Toggle pills with counts: corrected, modes, ASR models, LLM models (OR within a group). */
export function TagRow({ filters, facets, onFilters }: TagRowProps) {
  const { t } = useI18n();
  if (!facets) return <div className="tags tags-loading" aria-hidden="true" />;
  const groups: readonly [TagGroup, 'history.tag.mode' | 'history.tag.stt' | 'history.tag.llm', Readonly<Record<string, number>>][] = [
    ['modes', 'history.tag.mode', facets.modes],
    ['sttModels', 'history.tag.stt', facets.sttModels],
    ['llmModels', 'history.tag.llm', facets.llmModels],
  ];
  return (
    <div className="tags" role="group" aria-label={t('history.tags')}>
      <button
        type="button"
        className="pill"
        aria-pressed={filters.corrected}
        onClick={() => onFilters({ ...filters, corrected: !filters.corrected })}
      >
        {t('history.tag.corrected')} <span className="count">{facets.corrected.yes}</span>
      </button>
      {groups.map(([group, label, counts]) => {
        const list = values(counts, filters[group]);
        if (list.length === 0) return null;
        return (
          <span key={group} className="tag-group" role="group" aria-label={t(label)}>
            <span className="tag-group-label" aria-hidden="true">
              {t(label)}
            </span>
            {list.map(([value, n]) => (
              <button
                key={value}
                type="button"
                className="pill"
                title={value || t('history.tag.none')}
                // The name starts with the visible text (WCAG label-in-name), then says the group and full value.
                aria-label={`${value ? shortModel(value) : t('history.tag.none')} ${n}, ${t(label)} ${value || t('history.tag.none')}`}
                aria-pressed={filters[group].includes(value)}
                onClick={() => onFilters(toggleTag(filters, group, value))}
              >
                {value ? shortModel(value) : t('history.tag.none')} <span className="count">{n}</span>
              </button>
            ))}
          </span>
        );
      })}
    </div>
  );
}
