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

type Keyed<T> = { readonly key: string; readonly value: T };

/** The search box's text, applied to the filters once typing pauses for SEARCH_DEBOUNCE_MS. */
function useDebouncedSearch(filters: HistoryFilters, setFilters: (next: HistoryFilters) => void): [string, (text: string) => void] {
  const [searchText, setSearchText] = useState('');
  useEffect(() => {
    if (searchText === filters.text) return;
    const timer = setTimeout(() => setFilters({ ...filters, text: searchText }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, filters, setFilters]);
  return [searchText, useCallback((text: string) => setSearchText(text), [])];
}

/**
 * The rows of one page (`count: false`, so a page shows at once even over a million records), stored
 * with the request they answer so "loading" is derived; answers to superseded requests are dropped.
 */
function usePageRows(bridge: TingxieBridge, filters: HistoryFilters, cursor: string | undefined, pageKey: string) {
  const [rows, setRows] = useState<Keyed<LoadedPage> | null>(null);
  const [failed, setFailed] = useState<Keyed<string> | null>(null);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    bridge.history.query({ ...toHistoryQuery(filters, new Date(), cursor), count: false, facets: false }).then(
      (p) => {
        if (mine !== seq.current) return;
        setRows({ key: pageKey, value: { rows: p.rows, page: p.page, nextCursor: p.nextCursor, prevCursor: p.prevCursor } });
        setFailed(null);
      },
      (e: unknown) => {
        if (mine === seq.current) setFailed({ key: pageKey, value: errorText(e) });
      },
    );
  }, [bridge, filters, cursor, pageKey]);
  return { rows, failed };
}

/** Total and facets of the filters (only when they change: paging does not change them). */
function useMatchCount(bridge: TingxieBridge, filters: HistoryFilters, filtersKey: string, countTick: number) {
  const [count, setCount] = useState<Keyed<HistoryMatchCount> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    bridge.history.count({ ...toHistoryQuery(filters, new Date()), facets: true }).then(
      (c) => {
        if (mine !== seq.current) return;
        setCount({ key: filtersKey, value: c });
        setError(null);
      },
      (e: unknown) => {
        if (mine === seq.current) setError(errorText(e));
      },
    );
  }, [bridge, filters, filtersKey, countTick]);
  return { count, error };
}

/** The total of the same search over everything (no time range, archives included; a count only). */
function useWidenedTotal(bridge: TingxieBridge, filters: HistoryFilters, filtersKey: string, narrowed: boolean, countTick: number): Keyed<number> | null {
  const [wide, setWide] = useState<Keyed<number> | null>(null);
  useEffect(() => {
    if (!narrowed) return;
    let live = true;
    bridge.history.count({ ...toHistoryQuery(widened(filters), new Date()), facets: false }).then(
      (c) => live && setWide({ key: filtersKey, value: c.total }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge, filters, filtersKey, narrowed, countTick]);
  return wide;
}

/** Changes made elsewhere (a new dictation, the CLI, retention) show without reopening the window. */
function useHistoryChanged(bridge: TingxieBridge, refresh: () => void): void {
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
}

/**
 * Drives the browser: rows first, then the total and facets for "Page X / Y" and the tag row. Any
 * filter change goes back to page 1.
 */
export function useHistoryBrowser(bridge: TingxieBridge): HistoryBrowser {
  const [filters, setFiltersState] = useState<HistoryFilters>(DEFAULT_FILTERS);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const [countTick, setCountTick] = useState(0);
  const setFilters = useCallback((next: HistoryFilters) => {
    setFiltersState(next);
    setCursor(undefined);
  }, []);
  const [searchText, setSearchText] = useDebouncedSearch(filters, setFilters);

  const filtersKey = JSON.stringify(filters);
  const pageKey = `${filtersKey}|${cursor ?? ''}|${tick}`;
  const narrowed = isNarrowed(filters);
  const rows = usePageRows(bridge, filters, cursor, pageKey);
  const counted = useMatchCount(bridge, filters, filtersKey, countTick);
  const wideState = useWidenedTotal(bridge, filters, filtersKey, narrowed, countTick);

  const page = rows.rows?.value ?? null;
  // A refresh keeps showing the previous count of the same filters; new filters show "Counting…".
  const count = counted.count?.key === filtersKey ? counted.count.value : null;
  const wide = wideState?.key === filtersKey ? wideState.value : null;
  const hidden = !narrowed ? 0 : count === null || wide === null ? null : Math.max(0, wide - count.total);
  const loading = rows.rows?.key !== pageKey && rows.failed?.key !== pageKey;

  const refresh = useCallback(() => {
    setTick((n) => n + 1);
    setCountTick((n) => n + 1);
  }, []);
  useHistoryChanged(bridge, refresh);

  return {
    filters,
    searchText,
    page,
    count,
    hidden,
    loading,
    error: rows.failed?.value ?? counted.error,
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
