import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import { Banner } from '../components/banner.tsx';
import { useHistoryBrowser } from '../hooks/use-history-browser.ts';
import type { HistoryRow } from '../../shared/history/query.ts';
import type { HistoryFilters } from '../lib/history-filters.ts';
import { modeLabeller } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { DetailPane } from './detail-pane.tsx';
import { HiddenMatches } from './hidden-matches.tsx';
import { HistoryToolbar } from './history-toolbar.tsx';
import { RecordList, type PageMove } from './record-list.tsx';
import { RecoverBar } from './recover-bar.tsx';
import { TagRow } from './tag-row.tsx';

/** The History Browser proper: toolbar, tag row, one page of rows, pager, detail pane. */
export function RecordsView({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t, lang } = useI18n();
  const hb = useHistoryBrowser(bridge);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [editRequest, setEditRequest] = useState(0);
  const [deleteRequest, setDeleteRequest] = useState(0);
  const modes = useModes(bridge);
  const searchRef = useRef<HTMLInputElement>(null);
  const listWrap = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => hb.page?.rows ?? [], [hb.page]);
  const selected = rows.find((r) => r.key === selectedKey) ?? null;
  const labelOf = useMemo(() => modeLabeller(modes, lang), [modes, lang]);

  useSearchShortcut(searchRef);

  const pageNo = hb.page?.page ?? 1;
  const setPendingSelect = usePageSelection(rows, pageNo, listWrap, setSelectedKey);

  const focusList = () => listWrap.current?.querySelector<HTMLElement>('[role="listbox"]')?.focus();
  const move = (dir: 'next' | 'prev', select: PageMove): void => {
    const can = dir === 'next' ? hb.page?.nextCursor : hb.page?.prevCursor || pageNo === 2;
    if (!can) return;
    setPendingSelect(select);
    if (dir === 'next') hb.next();
    else hb.prev();
  };
  const widen = () => hb.setFilters({ ...hb.filters, time: 'all', archived: true });

  return (
    <div className="records-view">
      <HistoryToolbar filters={hb.filters} searchText={hb.searchText} searchRef={searchRef} onSearchText={hb.setSearchText} onFilters={hb.setFilters} />
      <TagRow filters={hb.filters} facets={hb.count?.facets ?? null} labelOf={labelOf} onFilters={hb.setFilters} />
      {hb.hidden !== null && hb.hidden > 0 && rows.length > 0 ? <HiddenMatches filters={hb.filters} hidden={hb.hidden} onWiden={widen} /> : null}
      <RecoverBar bridge={bridge} />
      {hb.error ? (
        <Banner tone="error" testId="history-error">
          {t('history.error', { message: hb.error })}
        </Banner>
      ) : null}
      <div className="split">
        <div className="list-col" ref={listWrap}>
          {rows.length === 0 && !hb.loading ? (
            <EmptyList hidden={hb.hidden} filters={hb.filters} onWiden={widen} />
          ) : (
            <RecordList
              rows={rows}
              selectedKey={selectedKey}
              labelOf={labelOf}
              onSelect={setSelectedKey}
              onOpen={() => setEditRequest((n) => n + 1)}
              onDelete={() => setDeleteRequest((n) => n + 1)}
              onNextPage={(select) => move('next', select)}
              onPrevPage={(select) => move('prev', select)}
            />
          )}
          <Pager pageNo={pageNo} pages={hb.count?.pageCount} total={hb.count?.total} loading={hb.loading} hasNext={!!hb.page?.nextCursor} onMove={(dir) => move(dir, null)} />
        </div>
        {selected ? (
          <DetailPane
            key={selected.key}
            row={selected}
            bridge={bridge}
            modes={modes}
            labelOf={labelOf}
            editRequest={editRequest}
            deleteRequest={deleteRequest}
            onClose={() => (setSelectedKey(null), focusList())}
            onSave={async (finalText) => {
              await bridge.history.update({ key: selected.key, final_text: finalText });
              hb.refresh();
            }}
            onDelete={() => deleteKeepingPlace(bridge, rows, selected.key, (key) => (setSelectedKey(key), hb.refresh(), focusList()))}
          />
        ) : (
          <NoDetail />
        )}
      </div>
    </div>
  );
}

/** Mode labels (and the re-run choices) come from the app's mode files; without them ids get built-in names. */
function useModes(bridge: TingxieBridge): readonly DictationModeWire[] {
  const [modes, setModes] = useState<readonly DictationModeWire[]>([]);
  useEffect(() => {
    bridge.dictation.modes().then(setModes, () => setModes([]));
  }, [bridge]);
  return modes;
}

/** Ctrl/⌘+F (and "/" outside a text field) jumps to the search box, as in other browsers of records. */
function useSearchShortcut(searchRef: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const inField = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;
      if (((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') || (e.key === '/' && !inField)) {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [searchRef]);
}

/**
 * No rows: that the range or the archives hide some (with the way to widen), that nothing matches the
 * filters, or — no filter chosen and nothing anywhere — how to make the first dictation.
 */
function EmptyList({ hidden, filters, onWiden }: { readonly hidden: number | null; readonly filters: HistoryFilters; readonly onWiden: () => void }) {
  const { t } = useI18n();
  const time = filters.time;
  const chosen = filters.text !== '' || filters.corrected || filters.modes.length > 0 || filters.sttModels.length > 0 || filters.llmModels.length > 0 || filters.apps.length > 0;
  if (!chosen && (hidden === null || hidden === 0)) {
    return (
      <div className="empty empty-first" data-testid="history-empty">
        <p className="empty-title">{t('history.empty.first')}</p>
        <p className="help">{t('history.empty.firstHow')}</p>
      </div>
    );
  }
  return (
    <div className="empty" data-testid="history-empty">
      {hidden !== null && hidden > 0 ? (
        <>
          <p>
            {time === 'all'
              ? t('history.empty.hiddenArchives', { count: hidden.toLocaleString() })
              : t('history.empty.hidden', { count: hidden.toLocaleString(), range: t(`history.range.${time}`) })}
          </p>
          <button type="button" className="primary" onClick={onWiden} data-testid="history-widen">
            {t('history.empty.widen')}
          </button>
        </>
      ) : (
        <p>{t('history.empty')}</p>
      )}
    </div>
  );
}

/** Previous and Next, the page number (of how many, once counted) and the total. */
function Pager({ pageNo, pages, total, loading, hasNext, onMove }: {
  readonly pageNo: number;
  readonly pages: number | null | undefined;
  readonly total: number | null | undefined;
  readonly loading: boolean;
  readonly hasNext: boolean;
  readonly onMove: (dir: 'next' | 'prev') => void;
}) {
  const { t } = useI18n();
  return (
    <nav className="pager" aria-label={t('history.pager')}>
      <button type="button" onClick={() => onMove('prev')} disabled={pageNo <= 1 || loading} aria-label={t('history.prev')}>
        ‹ {t('history.prev')}
      </button>
      <span className="page-label" data-testid="page-label" aria-live="polite">
        {pages != null ? t('history.page', { page: pageNo, pages }) : t('history.pageUnknown', { page: pageNo })}
      </span>
      <button type="button" onClick={() => onMove('next')} disabled={!hasNext || loading} aria-label={t('history.next')}>
        {t('history.next')} ›
      </button>
      <span className="total" data-testid="total">
        {total != null ? t(total === 1 ? 'history.total.one' : 'history.total', { total: total.toLocaleString() }) : t('history.counting')}
      </span>
    </nav>
  );
}

/**
 * A new page (Next, Previous, new filters) starts at its top; a page the keyboard asked for selects its
 * first or last row, so ↑/↓/PageUp/PageDown never lose the selection. Returns the setter of that request.
 */
function usePageSelection(rows: readonly HistoryRow[], pageNo: number, listWrap: RefObject<HTMLDivElement | null>, setSelectedKey: (key: string | null) => void): (select: PageMove) => void {
  // Which row to select once the page the keyboard asked for arrives.
  const [pendingSelect, setPendingSelect] = useState<PageMove>(null);
  // Only a different page resets: a refresh of the same page keeps the scroll and the selection.
  const pageId = `${pageNo}:${rows[0]?.key ?? ''}`;
  const [seenPage, setSeenPage] = useState(pageId);
  if (seenPage !== pageId) {
    // React's "adjust state when a prop changes": the new page's row is selected in the same render.
    setSeenPage(pageId);
    if (pendingSelect !== null && rows.length > 0) {
      setSelectedKey((pendingSelect === 'first' ? rows[0] : rows[rows.length - 1])?.key ?? null);
      setPendingSelect(null);
    }
  }
  useEffect(() => {
    const list = listWrap.current?.querySelector<HTMLElement>('[role="listbox"]');
    if (!list) return;
    list.scrollTop = 0;
    // A row the keyboard selected on the new page (the last one, after ↑ from the top) stays in view.
    list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [pageId, listWrap]);
  return setPendingSelect;
}

/** Deletes the selected record, then selects its neighbour (the next row, or the previous one at the end) through `then`. */
async function deleteKeepingPlace(bridge: TingxieBridge, rows: readonly HistoryRow[], key: string, then: (neighbour: string | null) => void): Promise<void> {
  const i = rows.findIndex((r) => r.key === key);
  await bridge.history.delete({ key });
  // Keep the user's place: the next row (or the previous one at the end) becomes selected.
  const neighbour = rows[i + 1] ?? rows[i - 1];
  then(neighbour ? neighbour.key : null);
}

/** The detail column with nothing selected. */
function NoDetail() {
  const { t } = useI18n();
  return (
    // Narrow while nothing is selected: the list's texts get the room.
    <aside className="detail detail-empty detail-none" aria-label={t('history.detail')}>
      <p className="help">{t('history.detail.none')}</p>
    </aside>
  );
}
