import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { RecordingInfo, RetranscribeResult, SpeechChoice } from '../../shared/ipc/recordings-contract.ts';
import type { HistoryRow } from '../../shared/history/query.ts';
import { formatBytes } from '../components/model-card.tsx';
import { errorText } from '../lib/errors.ts';
import { speechModelName } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** A choice as the select names it: the local model by its readable name, the remote one marked so. */
function choiceLabel(c: SpeechChoice, lang: 'zh' | 'en', remote: (model: string) => string): string {
  return c.engine === 'local' ? speechModelName(c.model, lang) : remote(c.model);
}

const choiceValue = (c: SpeechChoice): string => `${c.engine}:${c.model}`;

/**
 * The record's kept audio: the page's own <audio> element plays it from the app's protocol (main serves
 * it by record key: no file path ever reaches the page), "Save as WAV…" (a save dialog in main), and
 * "Re-transcribe with …" an installed speech model or the remote engine, whose result replaces the texts
 * or is kept beside them. Says so when the record has no audio.
 */
export function RecordingSection({ bridge, row, onStatus }: { readonly bridge: TingxieBridge; readonly row: HistoryRow; readonly onStatus: (text: string) => void }) {
  const { t } = useI18n();
  const [info, setInfo] = useState<RecordingInfo | null>(null);
  useEffect(() => {
    let live = true;
    bridge.recordings.info({ key: row.key }).then(
      (i) => live && setInfo(i),
      () => live && setInfo({ audio: null, choices: [] }),
    );
    return () => {
      live = false;
    };
  }, [bridge, row.key, row.stt_model]);
  if (info === null) return null;
  const audio = info.audio;
  return (
    <section className="recording" aria-labelledby="detail-recording-label" data-testid="detail-recording">
      <h3 id="detail-recording-label">{t('recording.title')}</h3>
      {audio === null ? (
        <p className="help" data-testid="recording-none">
          {t('recording.none')}
        </p>
      ) : (
        <>
          <audio controls preload="metadata" src={audio.src} aria-label={t('recording.player')} data-testid="recording-player" />
          <div className="recording-facts">
            <span className="help">{t('recording.size', { seconds: audio.seconds.toFixed(1), size: formatBytes(audio.bytes) })}</span>
            <button
              type="button"
              className="small"
              onClick={() =>
                bridge.recordings.save({ key: row.key }).then(
                  (path) => path !== null && onStatus(t('recording.saved', { path })),
                  (e: unknown) => onStatus(errorText(e)),
                )
              }
            >
              {t('recording.save')}
            </button>
          </div>
          <Retranscribe bridge={bridge} row={row} choices={info.choices} onStatus={onStatus} />
        </>
      )}
    </section>
  );
}

/** "Re-transcribe with [model] [Transcribe]", then the new transcript with Replace / Keep both / Discard. */
function Retranscribe({ bridge, row, choices, onStatus }: { readonly bridge: TingxieBridge; readonly row: HistoryRow; readonly choices: readonly SpeechChoice[]; readonly onStatus: (text: string) => void }) {
  const { t, lang } = useI18n();
  const [picked, setPicked] = useState(() => choiceValue(choices.find((c) => !row.stt_model.endsWith(c.model)) ?? choices[0] ?? { engine: 'local', model: '' }));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RetranscribeResult | null>(null);
  if (choices.length === 0) return <p className="help">{t('recording.retranscribe.none')}</p>;
  const remote = (model: string) => t('recording.remote', { model });
  const run = (): void => {
    const choice = choices.find((c) => choiceValue(c) === picked);
    if (!choice || busy) return;
    setBusy(true);
    setResult(null);
    onStatus(t('recording.retranscribe.running'));
    bridge.recordings
      .retranscribe({ key: row.key, choice })
      .then(
        (r) => {
          setResult(r);
          onStatus('');
        },
        (e: unknown) => onStatus(t('recording.failed', { message: errorText(e) })),
      )
      .finally(() => setBusy(false));
  };
  const apply = (how: 'replace' | 'beside'): void => {
    if (result === null) return;
    bridge.recordings.apply({ key: row.key, how, text: result.text, sttModel: result.sttModel, language: result.language }).then(
      () => {
        setResult(null);
        onStatus(t(how === 'replace' ? 'recording.replaced' : 'recording.keptBeside'));
      },
      (e: unknown) => onStatus(errorText(e)),
    );
  };
  return (
    <>
      <div className="rerun">
        <label htmlFor="detail-retranscribe-model">{t('recording.retranscribe')}</label>
        <select id="detail-retranscribe-model" value={picked} onChange={(e) => setPicked(e.currentTarget.value)}>
          {choices.map((c) => (
            <option key={choiceValue(c)} value={choiceValue(c)}>
              {choiceLabel(c, lang, remote)}
            </option>
          ))}
        </select>
        <button type="button" onClick={run} disabled={busy} data-testid="recording-retranscribe">
          {busy ? t('recording.retranscribe.running') : t('recording.retranscribe.button')}
        </button>
      </div>
      {result !== null ? (
        <div className="retranscribed" data-testid="recording-result">
          <h3>{t('recording.result', { model: speechModelName(result.sttModel, lang) })}</h3>
          <p className="text-block">{result.text}</p>
          <div className="detail-actions">
            <button type="button" onClick={() => setResult(null)}>
              {t('recording.discard')}
            </button>
            <button type="button" onClick={() => apply('beside')} data-testid="recording-beside">
              {t('recording.beside')}
            </button>
            <button type="button" className="primary" onClick={() => apply('replace')} data-testid="recording-replace">
              {t('recording.replace')}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
