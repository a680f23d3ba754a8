import { useState } from 'react';
import type { FacetCounts } from '../../shared/history/query.ts';
import { shortModel, speechModelLabel, toggleTag, type HistoryFilters, type TagGroup } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Props of the tag row. */
export interface TagRowProps {
  readonly filters: HistoryFilters;
  readonly facets: FacetCounts | null;
  readonly labelOf: (mode: string) => string;
  readonly onFilters: (next: HistoryFilters) => void;
}

const MAX_PER_GROUP = 8;
const GROUPS: readonly TagGroup[] = ['modes', 'sttModels', 'llmModels', 'apps'];

/** The order pills are shown in, per group: fixed when first seen, so filtering never reshuffles them. */
type PillOrder = Readonly<Record<TagGroup, readonly string[]>>;

/**
 * The next order: values already shown keep their place; new ones (the first counts, or values a wider
 * filter brings in) are appended busiest first, up to the group's limit. Selected values always stay.
 */
export function nextPillOrder(order: PillOrder, facets: FacetCounts, filters: HistoryFilters): PillOrder {
  const out = { ...order };
  for (const g of GROUPS) {
    const known = order[g];
    const fresh = Object.entries(facets[g])
      .filter(([v, n]) => n > 0 && !known.includes(v))
      .sort((a, b) => b[1] - a[1])
      .map(([v]) => v);
    const next = [...known, ...fresh.slice(0, Math.max(0, MAX_PER_GROUP - known.length))];
    for (const s of filters[g]) if (!next.includes(s)) next.push(s);
    out[g] = next;
  }
  return out;
}

type GroupLabel = 'history.tag.mode' | 'history.tag.stt' | 'history.tag.llm' | 'history.tag.app';

const EMPTY_ORDER: PillOrder = { modes: [], sttModels: [], llmModels: [], apps: [] };

/** Toggle pills with counts: corrected, modes (by label), speech models, AI models (OR within a group). */
export function TagRow({ filters, facets, labelOf, onFilters }: TagRowProps) {
  const { t, lang } = useI18n();
  const [order, setOrder] = useState<PillOrder>(EMPTY_ORDER);
  const [seen, setSeen] = useState<FacetCounts | null>(null);
  if (facets !== null && facets !== seen) {
    // React's "adjust state when a prop changes": new counts extend the order, never reorder it.
    setSeen(facets);
    setOrder(nextPillOrder(order, facets, filters));
  }
  if (!facets) return <div className="tags tags-loading" aria-hidden="true" />;
  const groups: readonly [TagGroup, GroupLabel][] = [
    ['modes', 'history.tag.mode'],
    ['sttModels', 'history.tag.stt'],
    ['llmModels', 'history.tag.llm'],
    ['apps', 'history.tag.app'],
  ];
  const pill = (group: TagGroup, label: GroupLabel, value: string) => {
    const n = facets[group][value] ?? 0;
    // Speech models by name ("Whisper Small (q5_1)"); other models keep the provider's own, shortened at a word.
    const shown = value === '' ? t('history.tag.none') : group === 'modes' ? labelOf(value) : group === 'sttModels' ? speechModelLabel(value, lang) : shortModel(value);
    const full = value === '' ? t('history.tag.none') : group === 'modes' ? labelOf(value) : value;
    return (
      <button
        key={value}
        type="button"
        className={`pill${n === 0 ? ' pill-empty' : ''}`}
        title={full}
        // The name starts with the visible text (WCAG label-in-name), then says the group and full value.
        aria-label={`${shown} ${n}, ${t(label)} ${full}`}
        aria-pressed={filters[group].includes(value)}
        onClick={() => onFilters(toggleTag(filters, group, value))}
      >
        {shown} <span className="count">{n}</span>
      </button>
    );
  };
  return (
    <div className="tags" role="group" aria-label={t('history.tags')}>
      {/* A pill that can only find nothing ("Corrected 0") is not offered, unless it is what filters now. */}
      {facets.corrected.yes > 0 || filters.corrected ? (
        <button type="button" className="pill" aria-pressed={filters.corrected} onClick={() => onFilters({ ...filters, corrected: !filters.corrected })}>
          {t('history.tag.corrected')} <span className="count">{facets.corrected.yes}</span>
        </button>
      ) : null}
      {groups.map(([group, label]) => {
        const values = order[group];
        // A group whose only value is "(none)" (no app ever recorded) cannot narrow anything: not offered.
        if (values.length === 0 || (values.length === 1 && values[0] === '' && filters[group].length === 0)) return null;
        return (
          <span key={group} className="tag-group" role="group" aria-label={t(label)}>
            {/* The label never ends a line alone: it stays with the group's first pill. */}
            <span className="tag-lead">
              <span className="tag-group-label" aria-hidden="true">
                {t(label)}
              </span>
              {pill(group, label, values[0] ?? '')}
            </span>
            {values.slice(1).map((value) => pill(group, label, value))}
          </span>
        );
      })}
    </div>
  );
}
