import { useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { Banner } from '../components/banner.tsx';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { importResultWords, type ImportResultWords, type LeftOutFile } from './import-result-words.ts';

type Pending = { readonly kind: 'day'; readonly day: string } | { readonly kind: 'all' } | null;

/** Local date as YYYY-MM-DD. */
function today(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Files as a list: the path as code, then what happened to it. */
function LeftOutList({ files }: { readonly files: readonly LeftOutFile[] }) {
  return (
    <ul>
      {files.map((f) => (
        <li key={f.path}>
          <code>{f.path}</code> — {f.text}
        </li>
      ))}
    </ul>
  );
}

/** What an import left out (files not read, lines not readable), named in a warning. */
function ImportLeftOut({ words }: { readonly words: ImportResultWords }) {
  return (
    <Banner tone="warning" testId="import-left-out">
      <div>{words.summary}</div>
      {[words.skipped, words.unreadable].map((g) =>
        g === null ? null : (
          <div key={g.headline} className="banner-section">
            {g.headline}
            <LeftOutList files={g.files} />
          </div>
        ),
      )}
    </Banner>
  );
}

/** The history files: export as JSONL or CSV, import WenZi's history. */
function FileActions({ onExport, onImport }: { readonly onExport: (format: 'jsonl' | 'csv') => void; readonly onImport: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <h2>{t('privacy.files')}</h2>
      <div className="group">
        <div className="row inline">
          <button type="button" onClick={() => onExport('jsonl')}>
            {t('privacy.exportJsonl')}
          </button>
          <button type="button" onClick={() => onExport('csv')}>
            {t('privacy.exportCsv')}
          </button>
          <button type="button" onClick={onImport}>
            {t('privacy.import')}
          </button>
        </div>
      </div>
    </>
  );
}

/** The confirmation a deletion waits for: what goes, Confirm and Cancel. */
function ConfirmRow({ pending, onConfirm, onCancel }: { readonly pending: NonNullable<Pending>; readonly onConfirm: () => void; readonly onCancel: () => void }) {
  const { t } = useI18n();
  const question = pending.kind === 'day' ? t('privacy.deleteDayConfirm', { day: pending.day }) : t('privacy.deleteAllConfirm');
  return (
    <div className="row confirm-row" role="alertdialog" aria-label={question}>
      <span className="grow">{question}</span>
      <button type="button" className="danger" onClick={onConfirm}>
        {t('privacy.confirm')}
      </button>
      <button type="button" onClick={onCancel}>
        {t('privacy.cancel')}
      </button>
    </div>
  );
}

/** History & privacy actions: export (JSONL/CSV), import WenZi history, delete a day / everything (each confirmed). */
export function PrivacyActions({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [day, setDay] = useState(today());
  const [pending, setPending] = useState<Pending>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [leftOut, setLeftOut] = useState<ImportResultWords | null>(null);
  const run = (p: Promise<string | null>) => {
    setLeftOut(null);
    return p.then(
      (text) => text !== null && setMessage({ ok: true, text }),
      (e: unknown) => setMessage({ ok: false, text: errorText(e) }),
    );
  };
  // A clean import is one line of status; one that left something out names it in a warning.
  const importWenzi = () =>
    run(
      bridge.history.import().then((r) => {
        if (r === null) return null;
        const words = importResultWords(t, r);
        if (words.skipped === null && words.unreadable === null) return words.summary;
        setMessage(null);
        setLeftOut(words);
        return null;
      }),
    );
  const exportAs = (format: 'jsonl' | 'csv') =>
    run(bridge.history.export({ format }).then((r) => (r ? t('privacy.exported', { count: r.count, path: r.path }) : null)));
  const confirm = () => {
    const p = pending;
    setPending(null);
    if (p?.kind === 'day') {
      run(bridge.history.deleteDay({ day: p.day, tzOffsetMinutes: -new Date().getTimezoneOffset() }).then((count) => t('privacy.deletedDay', { count, day: p.day })));
    } else if (p?.kind === 'all') {
      run(bridge.history.deleteAll({ confirm: true }).then(() => t('privacy.deletedAll')));
    }
  };
  return (
    <>
      <FileActions onExport={(format) => void exportAs(format)} onImport={() => void importWenzi()} />
      <h2>{t('privacy.delete')}</h2>
      <div className="group">
        <div className="row">
          <label className="row-label grow" htmlFor="privacy-day">
            {t('privacy.deleteDay')}
          </label>
          <input id="privacy-day" type="date" value={day} max={today()} onChange={(e) => setDay(e.currentTarget.value)} />
          <button type="button" className="danger-outline" disabled={!/^\d{4}-\d{2}-\d{2}$/.test(day)} onClick={() => setPending({ kind: 'day', day })}>
            {t('privacy.deleteDayButton')}
          </button>
        </div>
        <div className="row">
          <span className="grow" />
          <button type="button" className="danger-outline" onClick={() => setPending({ kind: 'all' })}>
            {t('privacy.deleteAll')}
          </button>
        </div>
        {pending ? <ConfirmRow pending={pending} onConfirm={confirm} onCancel={() => setPending(null)} /> : null}
      </div>
      {leftOut ? <ImportLeftOut words={leftOut} /> : null}
      {message ? (
        <p className={message.ok ? 'status status-set' : 'field-error'} role={message.ok ? 'status' : 'alert'} data-testid="privacy-message">
          {message.text}
        </p>
      ) : null}
    </>
  );
}
