import { useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { DictationModeWire } from '../../shared/ipc/dictation-types.ts';
import type { HistoryRow } from '../../shared/history/query.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * "Re-run in mode": the record's transcript goes through another mode (or the same one again) and opens
 * in the preview panel, where the result is checked and pasted or copied. Hidden where no dictation runs.
 */
export function RerunRow({
  bridge,
  row,
  modes,
  labelOf,
  onStatus,
}: {
  readonly bridge: TingxieBridge;
  readonly row: HistoryRow;
  readonly modes: readonly DictationModeWire[];
  readonly labelOf: (mode: string) => string;
  readonly onStatus: (text: string) => void;
}) {
  const { t } = useI18n();
  const [mode, setMode] = useState(() => (modes.some((m) => m.id === row.enhance_mode) ? row.enhance_mode : (modes[0]?.id ?? '')));
  if (modes.length === 0 || row.asr_text.trim() === '') return null;
  const run = (): void => {
    bridge.dictation.rerun({ text: row.asr_text, mode, ...(row.stt_model ? { sttModel: row.stt_model } : {}) }).then(
      () => onStatus(t('history.rerun.done')),
      (e: unknown) => onStatus(/current dictation/.test(errorText(e)) ? t('history.rerun.busy') : `${t('history.rerun.failed')} ${errorText(e)}`),
    );
  };
  return (
    <div className="rerun">
      <label htmlFor="detail-rerun-mode">{t('history.rerun')}</label>
      <select id="detail-rerun-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
        {modes.map((m) => (
          <option key={m.id} value={m.id}>
            {labelOf(m.id)}
          </option>
        ))}
      </select>
      <button type="button" onClick={run} data-testid="detail-rerun">
        {t('history.rerun.button')}
      </button>
    </div>
  );
}
