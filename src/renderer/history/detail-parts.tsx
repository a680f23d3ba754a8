import { useEffect, useRef, useState, type RefObject } from 'react';
import type { HistoryRow } from '../../shared/history/query.ts';
import { formatTimestamp } from '../lib/history-filters.ts';
import { speechModelName } from '../lib/human-names.ts';
import { useI18n, type Translate } from '../lib/i18n-context.ts';
import type { MessageKey } from '../lib/i18n.ts';

const outcomes = ['confirmed', 'copied', 'direct', 'cancelled', 'failed'] as const;

/** The metadata rows of a record (label key, value). */
export function metaRows(row: HistoryRow, t: Translate, lang: 'zh' | 'en', labelOf: (mode: string) => string): [MessageKey, string][] {
  const outcome = outcomes.find((o) => o === row.outcome);
  return [
    ['history.detail.time', formatTimestamp(row.timestamp)],
    ['history.detail.mode', labelOf(row.enhance_mode)],
    ['history.detail.models', [row.stt_model === '' ? '' : speechModelName(row.stt_model, lang), row.llm_model].filter(Boolean).join(' · ') || '—'],
    ['history.detail.duration', t('history.detail.seconds', { seconds: row.audio_duration.toFixed(1) })],
    ...(outcome ? ([['history.detail.outcome', t(`history.outcome.${outcome}`)]] as [MessageKey, string][]) : []),
    ...(row.edited_at ? ([['history.detail.edited', formatTimestamp(row.edited_at)]] as [MessageKey, string][]) : []),
    ['history.detail.file', row.archived ? t('history.detail.archive', { file: `${row.file}.jsonl` }) : t('history.detail.active')],
  ];
}

/** The pane's title with its close button, and the record's metadata. */
export function DetailHead({ row, labelOf, onClose }: { readonly row: HistoryRow; readonly labelOf: (mode: string) => string; readonly onClose: () => void }) {
  const { t, lang } = useI18n();
  return (
    <>
      <div className="detail-head">
        <h2>{t('history.detail')}</h2>
        <button type="button" className="icon" aria-label={t('history.close')} title={t('history.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <dl className="meta">
        {metaRows(row, t, lang, labelOf).map(([k, v]) => (
          <div key={k}>
            <dt>{t(k)}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** A text's heading with its Copy button (the label of the final text's field when `htmlFor` is given). */
export function TextHead({ id, title, text, htmlFor, onCopy }: { readonly id: string; readonly title: string; readonly text: string | null; readonly htmlFor?: string; readonly onCopy: (text: string) => void }) {
  const { t } = useI18n();
  return (
    <div className="text-head">
      {htmlFor !== undefined ? (
        <label id={id} htmlFor={htmlFor} className="h3">
          {title}
        </label>
      ) : (
        <h3 id={id}>{title}</h3>
      )}
      {text !== null && text !== '' ? (
        <button type="button" className="small" aria-label={t('history.copy.what', { what: title })} onClick={() => onCopy(text)}>
          {t('history.copy')}
        </button>
      ) : null}
    </div>
  );
}

/**
 * The final text's draft: starts as the stored text, and adopts the stored text when it changes (our save,
 * an edit elsewhere, a re-transcription; React's "adjust state on prop change").
 */
export function useDraft(stored: string): [string, (text: string) => void] {
  const [draft, setDraft] = useState(stored);
  const [seen, setSeen] = useState(stored);
  if (seen !== stored) {
    setSeen(stored);
    setDraft(stored);
  }
  return [draft, setDraft];
}

/**
 * The delete confirmation: open when asked from the pane, or when the list's Delete key changed
 * `deleteRequest`, until dismissed. The confirm button takes the focus when it opens.
 */
export function useDeleteConfirm(deleteRequest: number): { readonly confirming: boolean; readonly setConfirming: (on: boolean) => void; readonly confirmRef: RefObject<HTMLButtonElement | null> } {
  const [asked, setAsked] = useState(false);
  const [dismissedAt, setDismissedAt] = useState(deleteRequest);
  const confirming = asked || deleteRequest !== dismissedAt;
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Focused, and the whole question with both buttons scrolled into the pane's view.
    if (!confirming) return;
    confirmRef.current?.focus();
    confirmRef.current?.closest('.confirm')?.scrollIntoView({ block: 'nearest' });
  }, [confirming]);
  const setConfirming = (on: boolean): void => {
    setAsked(on);
    if (!on) setDismissedAt(deleteRequest);
  };
  return { confirming, setConfirming, confirmRef };
}

/** Delete (with its confirmation) and Save. */
export function DetailActions({
  confirm,
  canSave,
  onSave,
  onDelete,
}: {
  readonly confirm: ReturnType<typeof useDeleteConfirm>;
  readonly canSave: boolean;
  readonly onSave: () => void;
  readonly onDelete: () => void;
}) {
  const { t } = useI18n();
  const { confirming, setConfirming, confirmRef } = confirm;
  return (
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
              onDelete();
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
          <button type="button" className="primary" disabled={!canSave} title={t('history.saveHint')} onClick={onSave}>
            {t('history.save')}
          </button>
        </>
      )}
    </div>
  );
}
