import { useEffect, useRef, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import type { HistoryRow } from '../../shared/history/query.ts';
import { formatTimestamp } from '../lib/history-filters.ts';
import { speechModelName } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { MessageKey } from '../lib/i18n.ts';
import { RerunRow } from './rerun-row.tsx';

/** Props of the detail pane. */
export interface DetailPaneProps {
  readonly row: HistoryRow;
  readonly bridge: TingxieBridge;
  /** The modes "Re-run in mode" offers (empty where the app's dictation is not running). */
  readonly modes: readonly DictationModeWire[];
  readonly labelOf: (mode: string) => string;
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
 * All three texts in full (the pane scrolls; the texts never get a box of their own to be clipped in),
 * each with Copy; metadata; the editable final text (Ctrl/⌘+S saves); delete with confirmation; and
 * "Re-run in mode". The parent keys it by record, so another record starts fresh; a saved edit coming
 * back resets the draft.
 */
export function DetailPane({ row, bridge, modes, labelOf, editRequest, deleteRequest, onSave, onDelete, onClose }: DetailPaneProps) {
  const { t, lang } = useI18n();
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
  const copy = (text: string): void => {
    bridge.app.copyText({ text }).then(
      () => setStatus(t('history.copied')),
      (e: unknown) => setStatus(e instanceof Error ? e.message : String(e)),
    );
  };
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
    ['history.detail.mode', labelOf(row.enhance_mode)],
    ['history.detail.models', [row.stt_model === '' ? '' : speechModelName(row.stt_model, lang), row.llm_model].filter(Boolean).join(' · ') || '—'],
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
      <TextHead id="detail-asr-label" title={t('history.detail.asr')} text={row.asr_text} onCopy={copy} />
      <p className="text-block" data-testid="detail-asr" aria-labelledby="detail-asr-label">
        {row.asr_text}
      </p>
      <TextHead id="detail-enhanced-label" title={t('history.detail.enhanced')} text={row.enhanced_text} onCopy={copy} />
      <p className="text-block" data-testid="detail-enhanced" aria-labelledby="detail-enhanced-label">
        {row.enhanced_text ?? <span className="help">{t('history.detail.notEnhanced')}</span>}
      </p>
      <TextHead id="detail-final-label" title={t('history.detail.final')} text={draft} onCopy={copy} htmlFor="detail-final" />
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
      <RerunRow bridge={bridge} row={row} modes={modes} labelOf={labelOf} onStatus={setStatus} />
      <p className="status" role="status" aria-live="polite" data-testid="detail-status">
        {status}
      </p>
    </aside>
  );
}

/** A text's heading with its Copy button (the label of the final text's field when `htmlFor` is given). */
function TextHead({ id, title, text, htmlFor, onCopy }: { readonly id: string; readonly title: string; readonly text: string | null; readonly htmlFor?: string; readonly onCopy: (text: string) => void }) {
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
