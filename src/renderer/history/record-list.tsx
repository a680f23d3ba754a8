import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { HistoryRow } from '../../shared/history/query.ts';
import { formatTimestamp, rowPreview, rowTime, speechModelLabel } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** Which row of the next/previous page to select (the keyboard keeps a selection; the pager buttons do not). */
export type PageMove = 'first' | 'last' | null;

/** Props of the page's list. */
export interface RecordListProps {
  readonly rows: readonly HistoryRow[];
  readonly selectedKey: string | null;
  readonly labelOf: (mode: string) => string;
  readonly onSelect: (key: string) => void;
  /** Enter on a row: open it for editing. */
  readonly onOpen: () => void;
  /** Delete on a row. */
  readonly onDelete: () => void;
  readonly onNextPage: (select: PageMove) => void;
  readonly onPrevPage: (select: PageMove) => void;
}

/** DOM id of a row (for aria-activedescendant). */
function rowId(key: string): string {
  return `row-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/**
 * One page of dictations as a listbox: one tab stop, ↑/↓/Home/End move the selection (past either end
 * into the next or previous page), PageUp/PageDown change page keeping a selection, Enter edits, Delete
 * deletes. At most one page (100 rows) is ever in the DOM.
 */
export function RecordList({ rows, selectedKey, labelOf, onSelect, onOpen, onDelete, onNextPage, onPrevPage }: RecordListProps) {
  const { t } = useI18n();
  const listRef = useRef<HTMLUListElement>(null);
  const index = rows.findIndex((r) => r.key === selectedKey);

  useEffect(() => {
    if (!selectedKey) return;
    listRef.current?.querySelector(`#${CSS.escape(rowId(selectedKey))}`)?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey]);

  const onKeyDown = (e: KeyboardEvent) => {
    const last = rows.length - 1;
    const move = (i: number) => {
      const row = rows[Math.max(0, Math.min(last, i))];
      if (row) onSelect(row.key);
    };
    switch (e.key) {
      case 'ArrowDown':
        if (index === last) onNextPage('first');
        else move(index + 1);
        break;
      case 'ArrowUp':
        if (index === 0) onPrevPage('last');
        else move(index < 0 ? 0 : index - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(last);
        break;
      case 'PageDown':
        onNextPage('first');
        break;
      case 'PageUp':
        onPrevPage('first');
        break;
      case 'Enter':
        if (index >= 0) onOpen();
        break;
      case 'Delete':
        if (index >= 0) onDelete();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <ul
      ref={listRef}
      className="records"
      role="listbox"
      tabIndex={0}
      aria-label={t('history.list')}
      aria-activedescendant={index >= 0 && selectedKey ? rowId(selectedKey) : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (index < 0 && rows[0]) onSelect(rows[0].key);
      }}
    >
      {rows.map((r) => (
        <RecordRow key={r.key} row={r} selected={r.key === selectedKey} labelOf={labelOf} onSelect={onSelect} onOpen={onOpen} />
      ))}
    </ul>
  );
}

/** One dictation of the list: time, mode, text, and its tags. */
function RecordRow({ row: r, selected, labelOf, onSelect, onOpen }: {
  readonly row: HistoryRow;
  readonly selected: boolean;
  readonly labelOf: (mode: string) => string;
  readonly onSelect: (key: string) => void;
  readonly onOpen: () => void;
}) {
  const { t, lang } = useI18n();
  return (
    <li
      id={rowId(r.key)}
      role="option"
      aria-selected={selected}
      className="record"
      onClick={() => onSelect(r.key)}
      onDoubleClick={onOpen}
    >
      {/* Short (clock time today), the whole timestamp as its tooltip: the text gets the room. */}
      <span className="record-time" title={formatTimestamp(r.timestamp)}>
        {rowTime(r.timestamp)}
      </span>
      <span className="record-mode" title={labelOf(r.enhance_mode)}>
        {labelOf(r.enhance_mode)}
      </span>
      <span className="record-text" title={rowPreview(r.final_text, r.asr_text)} lang={/[\u3400-\u9fff]/.test(r.final_text) ? 'zh-CN' : undefined}>
        {rowPreview(r.final_text, r.asr_text)}
      </span>
      <span className="record-tags">
        {r.user_corrected ? <span className="mini mini-corr">{t('history.row.corrected')}</span> : null}
        {r.outcome === 'cancelled' || r.outcome === 'failed' ? <span className="mini mini-warn">{t(`history.outcome.${r.outcome}`)}</span> : null}
        {r.archived ? <span className="mini">{r.file}</span> : null}
        {r.stt_model ? <span className="mini mini-model" title={r.stt_model}>{speechModelLabel(r.stt_model, lang, 10)}</span> : null}
      </span>
    </li>
  );
}
