import type { HistoryIndex } from '../src/main/history/index/history-index.ts';
import type { HistoryQuery } from '../src/shared/history/query.ts';
import { pct, timeMs, type BenchEntry } from './lib/report.ts';

/** Walks to page `target` (or the last page) with cursors; returns that page's cursor and number. */
function cursorAt(index: HistoryIndex, q: HistoryQuery, target: number): { cursor: string | undefined; page: number } {
  let cursor: string | undefined;
  let page = 1;
  while (page < target) {
    const p = index.query({ ...q, cursor });
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
    page++;
  }
  return { cursor, page };
}

/**
 * B2: page 1 vs page 10,000 (or the deepest page there is), with and without a search. Pages are
 * reached by following cursors (keyset), as the History Browser does; a search's deep pages come from
 * the match list its count pass kept (index-match-list.ts).
 */
export function runB2(index: HistoryIndex): BenchEntry {
  const figures: Record<string, number> = {};
  let worst = 0;
  for (const [label, q] of [['browse', { includeArchived: true }], ['search', { includeArchived: true, text: '项目进度' }]] as const) {
    // First look: the page alone (count: false), then "Page X / Y" with tag facets, as the UI asks for them.
    const cold = timeMs(() => index.query({ ...q, count: false, facets: false }));
    figures[`${label}_count_facets_cold_ms`] = timeMs(() => index.countMatches({ ...q, facets: true }));
    const { cursor, page } = cursorAt(index, q, 10_000);
    const p1: number[] = [];
    const deep: number[] = [];
    for (let i = 0; i < 40; i++) {
      p1.push(timeMs(() => index.query(q)));
      deep.push(timeMs(() => index.query({ ...q, cursor })));
    }
    const ratio = pct(deep, 50) / pct(p1, 50);
    worst = Math.max(worst, ratio);
    figures[`${label}_page1_cold_ms`] = cold;
    figures[`${label}_page1_p50_ms`] = pct(p1, 50);
    figures[`${label}_deep_page`] = page;
    figures[`${label}_deep_p50_ms`] = pct(deep, 50);
    figures[`${label}_deep_p95_ms`] = pct(deep, 95);
    figures[`${label}_ratio`] = ratio;
  }
  return { ratio: worst, target: 'page 10,000 / page 1 <= 3 (p50, with and without search)', pass: worst <= 3, figures };
}
