import { useEffect, useRef, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { Banner } from '../components/banner.tsx';
import { useHistoryBrowser } from '../hooks/use-history-browser.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { DetailPane } from './detail-pane.tsx';
import { HistoryToolbar } from './history-toolbar.tsx';
import { RecordList } from './record-list.tsx';
import { RecoverBar } from './recover-bar.tsx';
import { TagRow } from './tag-row.tsx';

/** The History Browser proper: toolbar, tag row, one page of rows, pager, detail pane. */
export function RecordsView({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const hb = useHistoryBrowser(bridge);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [editRequest, setEditRequest] = useState(0);
  const [deleteRequest, setDeleteRequest] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const listWrap = useRef<HTMLDivElement>(null);
  const rows = hb.page?.rows ?? [];
  const selected = rows.find((r) => r.key === selectedKey) ?? null;

  // Ctrl/⌘+F (and "/" outside a text field) jumps to the search box, as in other browsers of records.
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
  }, []);

  const focusList = () => listWrap.current?.querySelector<HTMLElement>('[role="listbox"]')?.focus();
  const total = hb.count?.total;
  const pages = hb.count?.pageCount;
  const pageNo = hb.page?.page ?? 1;

  return (
    <div className="records-view">
      <HistoryToolbar filters={hb.filters} searchText={hb.searchText} searchRef={searchRef} onSearchText={hb.setSearchText} onFilters={hb.setFilters} />
      <TagRow filters={hb.filters} facets={hb.count?.facets ?? null} onFilters={hb.setFilters} />
      <RecoverBar bridge={bridge} />
      {hb.error ? (
        <Banner tone="error" testId="history-error">
          {t('history.error', { message: hb.error })}
        </Banner>
      ) : null}
      <div className="split">
        <div className="list-col" ref={listWrap}>
          {rows.length === 0 && !hb.loading ? (
            <p className="empty" data-testid="history-empty">
              {t('history.empty')}
            </p>
          ) : (
            <RecordList
              rows={rows}
              selectedKey={selectedKey}
              onSelect={setSelectedKey}
              onOpen={() => setEditRequest((n) => n + 1)}
              onDelete={() => setDeleteRequest((n) => n + 1)}
              onNextPage={hb.next}
              onPrevPage={hb.prev}
            />
          )}
          <nav className="pager" aria-label={t('history.pager')}>
            <button type="button" onClick={hb.prev} disabled={pageNo <= 1 || hb.loading} aria-label={t('history.prev')}>
              ‹ {t('history.prev')}
            </button>
            <span className="page-label" data-testid="page-label" aria-live="polite">
              {pages != null ? t('history.page', { page: pageNo, pages }) : t('history.pageUnknown', { page: pageNo })}
            </span>
            <button type="button" onClick={hb.next} disabled={!hb.page?.nextCursor || hb.loading} aria-label={t('history.next')}>
              {t('history.next')} ›
            </button>
            <span className="total" data-testid="total">
              {total != null ? t('history.total', { total: total.toLocaleString() }) : t('history.counting')}
            </span>
          </nav>
        </div>
        {selected ? (
          <DetailPane
            key={selected.key}
            row={selected}
            editRequest={editRequest}
            deleteRequest={deleteRequest}
            onClose={() => {
              setSelectedKey(null);
              focusList();
            }}
            onSave={async (finalText) => {
              await bridge.history.update({ key: selected.key, final_text: finalText });
              hb.refresh();
            }}
            onDelete={async () => {
              const i = rows.findIndex((r) => r.key === selected.key);
              await bridge.history.delete({ key: selected.key });
              // Keep the user's place: the next row (or the previous one at the end) becomes selected.
              const neighbour = rows[i + 1] ?? rows[i - 1];
              setSelectedKey(neighbour ? neighbour.key : null);
              hb.refresh();
              focusList();
            }}
          />
        ) : (
          <aside className="detail detail-empty" aria-label={t('history.detail')}>
            <p className="help">{t('history.detail.none')}</p>
          </aside>
        )}
      </div>
    </div>
  );
}
