import { useCallback, useEffect, useRef, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { HistoryMatchCount, HistoryRow } from '../../shared/history/query.ts';
import { errorText } from '../lib/errors.ts';
import { DEFAULT_FILTERS, isNarrowed, toHistoryQuery, widened, type HistoryFilters } from '../lib/history-filters.ts';

/** Search text is applied this long after the last keystroke (seed: 300 ms debounce). */
export const SEARCH_DEBOUNCE_MS = 300;

/** One page as the list shows it. */
export interface LoadedPage {
  readonly rows: readonly HistoryRow[];
  readonly page: number;
  readonly nextCursor: string | null;
  readonly prevCursor: string | null;
}

/** State and actions of the History Browser. */
export interface HistoryBrowser {
  /** The filters in force (text is the debounced one). */
  readonly filters: HistoryFilters;
  /** What the search box shows (may be ahead of `filters.text` by up to the debounce). */
  readonly searchText: string;
  readonly page: LoadedPage | null;
  /** Total and tag counts of the current filters; null while counting. */
  readonly count: HistoryMatchCount | null;
  /**
   * Matches the time range and the archive switch hide (the same search over everything, minus the
   * shown total); 0 when nothing is narrowed or nothing is hidden, null while counting.
   */
  readonly hidden: number | null;
  readonly loading: boolean;
  readonly error: string | null;
  setSearchText(text: string): void;
  /** Replaces the filters (back to page 1). */
  setFilters(next: HistoryFilters): void;
  next(): void;
  prev(): void;
  /** Re-reads the current page and the count (after an edit, delete or a history:changed event). */
  refresh(): void;
}

/**
 * Drives the browser: rows first (`count: false`, so a page shows at once even over a million
 * records), then the total and facets for "Page X / Y" and the tag row. Any filter change goes back to
 * page 1; responses to superseded requests are dropped.
 */
export function useHistoryBrowser(bridge: TingxieBridge): HistoryBrowser {
  const [filters, setFiltersState] = useState<HistoryFilters>(DEFAULT_FILTERS);
  const [searchText, setSearchTextState] = useState('');
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  // Each answer is stored with the request it answers, so "loading" and "counting" are derived, not set in effects.
  const [pageState, setPageState] = useState<{ readonly key: string; readonly page: LoadedPage } | null>(null);
  const [countState, setCountState] = useState<{ readonly key: string; readonly count: HistoryMatchCount } | null>(null);
  const [wideState, setWideState] = useState<{ readonly key: string; readonly total: number } | null>(null);
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [countTick, setCountTick] = useState(0);
  const pageSeq = useRef(0);
  const countSeq = useRef(0);

  const setFilters = useCallback((next: HistoryFilters) => {
    setFiltersState(next);
    setCursor(undefined);
  }, []);

  const setSearchText = useCallback((text: string) => setSearchTextState(text), []);
  useEffect(() => {
    if (searchText === filters.text) return;
    const timer = setTimeout(() => setFilters({ ...filters, text: searchText }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, filters, setFilters]);

  const filtersKey = JSON.stringify(filters);
  const pageKey = `${filtersKey}|${cursor ?? ''}|${tick}`;

  // Rows of the current page.
  useEffect(() => {
    const seq = ++pageSeq.current;
    bridge.history.query({ ...toHistoryQuery(filters, new Date(), cursor), count: false, facets: false }).then(
      (p) => {
        if (seq !== pageSeq.current) return;
        setPageState({ key: pageKey, page: { rows: p.rows, page: p.page, nextCursor: p.nextCursor, prevCursor: p.prevCursor } });
        setError(null);
      },
      (e: unknown) => {
        if (seq !== pageSeq.current) return;
        setFailedKey(pageKey);
        setError(errorText(e));
      },
    );
  }, [bridge, filters, cursor, pageKey]);

  // Total and facets: only when the filters change (paging does not change them).
  useEffect(() => {
    const seq = ++countSeq.current;
    bridge.history.count({ ...toHistoryQuery(filters, new Date()), facets: true }).then(
      (c) => {
        if (seq === countSeq.current) setCountState({ key: filtersKey, count: c });
      },
      (e: unknown) => {
        if (seq === countSeq.current) setError(errorText(e));
      },
    );
  }, [bridge, filters, filtersKey, countTick]);

  // What the time range and archive switch hide: the same search over everything (no facets: a count only).
  const narrowed = isNarrowed(filters);
  useEffect(() => {
    if (!narrowed) return;
    let live = true;
    bridge.history.count({ ...toHistoryQuery(widened(filters), new Date()), facets: false }).then(
      (c) => live && setWideState({ key: filtersKey, total: c.total }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge, filters, filtersKey, narrowed, countTick]);

  const page = pageState?.page ?? null;
  // A refresh keeps showing the previous count of the same filters; new filters show "Counting…".
  const count = countState?.key === filtersKey ? countState.count : null;
  const wide = wideState?.key === filtersKey ? wideState.total : null;
  const hidden = !narrowed ? 0 : count === null || wide === null ? null : Math.max(0, wide - count.total);
  const loading = pageState?.key !== pageKey && failedKey !== pageKey;

  const refresh = useCallback(() => {
    setTick((n) => n + 1);
    setCountTick((n) => n + 1);
  }, []);

  // Changes made elsewhere (a new dictation, the CLI, retention) show without reopening the window.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = bridge.on.historyChanged(() => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [bridge, refresh]);

  return {
    filters,
    searchText,
    page,
    count,
    hidden,
    loading,
    error,
    setSearchText,
    setFilters,
    next: () => {
      if (page?.nextCursor) setCursor(page.nextCursor);
    },
    prev: () => {
      if (page?.prevCursor) setCursor(page.prevCursor);
      else if (page && page.page === 2) setCursor(undefined);
    },
    refresh,
  };
}
