import { useEffect, useRef, useState } from 'react';
import type { HistoryRow } from '../../shared/history/query.ts';
import { formatTimestamp } from '../lib/history-filters.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { MessageKey } from '../lib/i18n.ts';

/** Props of the detail pane. */
export interface DetailPaneProps {
  readonly row: HistoryRow;
  /** Increments when the user asked to edit (Enter on the list): focuses the final text. */
  readonly editRequest: number;
  /** Increments when the user pressed Delete on the list: asks for confirmation. */
  readonly deleteRequest: number;
  readonly onSave: (finalText: string) => Promise<void>;
  readonly onDelete: () => Promise<void>;
  readonly onClose: () => void;
}

const outcomes = ['confirmed', 'copied', 'direct', 'cancelled', 'failed'] as const;

/**
 * All three texts, metadata, the editable final text (Ctrl/⌘+S saves), delete with confirmation.
 * The parent keys it by record, so another record starts fresh; a saved edit coming back resets the draft.
 */
export function DetailPane({ row, editRequest, deleteRequest, onSave, onDelete, onClose }: DetailPaneProps) {
  const { t } = useI18n();
  const [draft, setDraft] = useState(row.final_text);
  const [seenText, setSeenText] = useState(row.final_text);
  if (seenText !== row.final_text) {
    // The stored text changed (our save, or an edit elsewhere): adopt it (React's "adjust state on prop change").
    setSeenText(row.final_text);
    setDraft(row.final_text);
  }
  const [asked, setAsked] = useState(false);
  // A Delete key press on the list (deleteRequest changes) opens the confirmation until it is dismissed.
  const [dismissedAt, setDismissedAt] = useState(deleteRequest);
  const confirming = asked || deleteRequest !== dismissedAt;
  const setConfirming = (on: boolean) => {
    setAsked(on);
    if (!on) setDismissedAt(deleteRequest);
  };
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (editRequest > 0) {
      const el = textRef.current;
      el?.focus();
      el?.setSelectionRange(el.value.length, el.value.length);
    }
  }, [editRequest]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const dirty = draft !== row.final_text;
  const save = async () => {
    if (!dirty || busy) return;
    setBusy(true);
    try {
      await onSave(draft);
      setStatus(t('history.saved'));
    } catch (e) {
      setStatus(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const outcome = outcomes.find((o) => o === row.outcome);
  const meta: [MessageKey, string][] = [
    ['history.detail.time', formatTimestamp(row.timestamp)],
    ['history.detail.mode', row.enhance_mode],
    ['history.detail.models', [row.stt_model, row.llm_model].filter(Boolean).join(' · ') || '—'],
    ['history.detail.duration', t('history.detail.seconds', { seconds: row.audio_duration.toFixed(1) })],
    ...(outcome ? ([['history.detail.outcome', t(`history.outcome.${outcome}`)]] as [MessageKey, string][]) : []),
    ...(row.edited_at ? ([['history.detail.edited', formatTimestamp(row.edited_at)]] as [MessageKey, string][]) : []),
    ['history.detail.file', row.archived ? t('history.detail.archive', { file: `${row.file}.jsonl` }) : t('history.detail.active')],
  ];

  return (
    <aside
      className="detail"
      aria-label={t('history.detail')}
      onKeyDown={(e) => {
        if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 's') {
          e.preventDefault();
          void save();
        } else if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
          e.preventDefault();
          if (confirming) setConfirming(false);
          else onClose();
        }
      }}
    >
      <div className="detail-head">
        <h2>{t('history.detail')}</h2>
        <button type="button" className="icon" aria-label={t('history.close')} title={t('history.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <dl className="meta">
        {meta.map(([k, v]) => (
          <div key={k}>
            <dt>{t(k)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <h3>{t('history.detail.asr')}</h3>
      <p className="text-block" data-testid="detail-asr">
        {row.asr_text}
      </p>
      <h3>{t('history.detail.enhanced')}</h3>
      <p className="text-block" data-testid="detail-enhanced">
        {row.enhanced_text ?? <span className="help">{t('history.detail.notEnhanced')}</span>}
      </p>
      <label htmlFor="detail-final" className="h3">
        {t('history.detail.final')}
      </label>
      <textarea
        id="detail-final"
        ref={textRef}
        value={draft}
        maxLength={100_000}
        onChange={(e) => {
          setDraft(e.currentTarget.value);
          setStatus(null);
        }}
      />
      <div className="detail-actions">
        {confirming ? (
          <div className="confirm" role="alertdialog" aria-label={t('history.deleteConfirm')}>
            <span>{t('history.deleteConfirm')}</span>
            <button
              ref={confirmRef}
              type="button"
              className="danger"
              onClick={() => {
                setConfirming(false);
                void onDelete();
              }}
            >
              {t('history.deleteYes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('history.cancel')}
            </button>
          </div>
        ) : (
          <>
            <button type="button" className="danger-outline" onClick={() => setConfirming(true)}>
              {t('history.delete')}
            </button>
            <button type="button" className="primary" disabled={!dirty || busy} title={t('history.saveHint')} onClick={() => void save()}>
              {t('history.save')}
            </button>
          </>
        )}
      </div>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
    </aside>
  );
}
