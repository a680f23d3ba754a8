import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import type { HistoryRow } from '../../shared/history/query.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { ProposalBar } from '../panel/proposal-bar.tsx';
import { DetailActions, DetailHead, TextHead, useDeleteConfirm, useDraft } from './detail-parts.tsx';
import { RecordingSection } from './recording-section.tsx';
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

/**
 * All three texts in full (the pane scrolls; the texts never get a box of their own to be clipped in),
 * each with Copy; metadata; the editable final text (Ctrl/⌘+S saves); delete with confirmation;
 * "Re-run in mode"; and the recording (play, save, re-transcribe). The parent keys it by record, so
 * another record starts fresh; a saved edit coming back resets the draft.
 */
export function DetailPane({ row, bridge, modes, labelOf, editRequest, deleteRequest, onSave, onDelete, onClose }: DetailPaneProps) {
  const { t } = useI18n();
  const [draft, setDraft] = useDraft(row.final_text);
  const confirm = useDeleteConfirm(deleteRequest);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (editRequest > 0) {
      const el = textRef.current;
      el?.focus();
      el?.setSelectionRange(el.value.length, el.value.length);
    }
  }, [editRequest]);

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
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (confirm.confirming) confirm.setConfirming(false);
      else onClose();
    }
  };

  return (
    <aside className="detail" aria-label={t('history.detail')} onKeyDown={onKeyDown}>
      <DetailHead row={row} labelOf={labelOf} onClose={onClose} />
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
      {/* Correcting a name or term here offers the pair for the vocabulary, as the preview panel does. */}
      <ProposalBar bridge={bridge} before={row.enhanced_text ?? row.asr_text} after={draft} active={dirty} />
      <DetailActions confirm={confirm} canSave={dirty && !busy} onSave={() => void save()} onDelete={() => void onDelete()} />
      <RerunRow bridge={bridge} row={row} modes={modes} labelOf={labelOf} onStatus={setStatus} />
      <RecordingSection bridge={bridge} row={row} onStatus={setStatus} />
      <p className="status" role="status" aria-live="polite" data-testid="detail-status">
        {status}
      </p>
    </aside>
  );
}
