import { useCallback, useEffect, useState } from 'react';
import type { VocabImportResult, VocabItem } from '../../shared/ipc/settings-types.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n, type Translate } from '../lib/i18n-context.ts';
import { LearningSwitches } from './learning-switches.tsx';
import type { TabProps } from './tab-props.ts';

/** What an import did, naming the pairs that were already there (at most five, then how many more). */
function importMessage(t: Translate, r: NonNullable<VocabImportResult>): string {
  const done = t('vocab.imported', { count: r.count, path: r.path });
  if (r.duplicates.length === 0) return done;
  const shown = r.duplicates.slice(0, 5).map((d) => `“${d.wrong} → ${d.right}”`);
  const more = r.duplicates.length > 5 ? t('vocab.duplicates.more', { count: r.duplicates.length - 5 }) : '';
  return `${done} ${t('vocab.duplicates', { count: r.duplicates.length, pairs: shown.join(t('vocab.listSeparator')) + more })}`;
}

/** The same pair already stored (another one than `exceptId`): said, rather than merged silently. */
async function duplicateOf(bridge: TabProps['bridge'], t: Translate, w: string, r: string, exceptId?: number): Promise<string | null> {
  const pair = { wrong: w.trim(), right: r.trim() };
  const found = (await bridge.vocabulary.list({ filter: pair.wrong })).some((v) => v.wrong === pair.wrong && v.right === pair.right && v.id !== exceptId);
  return found ? t('vocab.duplicate', pair) : null;
}

/** Import and Export of the vocabulary as a JSON file. */
function ImportExport({ onImport, onExport }: { readonly onImport: () => void; readonly onExport: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <button type="button" onClick={onImport}>
        {t('vocab.import')}
      </button>
      <button type="button" onClick={onExport}>
        {t('vocab.export')}
      </button>
    </>
  );
}

/** Vocabulary manager: search, add, edit, delete (confirmed), import/export, hit/miss counters. */
export function VocabularyTab({ bridge, config, saver }: TabProps) {
  const { t } = useI18n();
  const [filter, setFilter] = useState('');
  const [items, setItems] = useState<readonly VocabItem[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirmId, setConfirmId] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    bridge.vocabulary.list({ filter }).then(setItems, (e: unknown) => setError(errorText(e)));
  }, [bridge, filter]);
  useEffect(() => {
    const timer = setTimeout(load, 150);
    return () => clearTimeout(timer);
  }, [load]);

  const run = async (call: () => Promise<unknown>, done?: () => void) => {
    try {
      await call();
      setError(null);
      done?.();
      load();
    } catch (e) {
      setError(errorText(e));
    }
  };

  /** Runs `call` unless the pair is a duplicate (then the error says which pair). */
  const runUnlessDuplicate = async (w: string, r: string, exceptId: number | undefined, call: () => Promise<unknown>, done: () => void) => {
    const dup = await duplicateOf(bridge, t, w, r, exceptId).catch(() => null);
    if (dup !== null) setError(dup);
    else await run(call, done);
  };

  return (
    <>
      <h2>{t('settings.tab.vocabulary')}</h2>
      <LearningSwitches config={config} saver={saver} />
      <AddForm error={error} onAdd={(w, r, clear) => void runUnlessDuplicate(w, r, undefined, () => bridge.vocabulary.add({ wrong: w, right: r }), clear)} />
      <div className="toolbar flush">
        <input type="search" className="search" aria-label={t('vocab.search')} placeholder={t('vocab.search')} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
        <ImportExport
          onImport={() => void run(async () => { const r = await bridge.vocabulary.import(); if (r) setMessage(importMessage(t, r)); })}
          onExport={() => void run(async () => { const r = await bridge.vocabulary.export(); if (r) setMessage(t('vocab.exported', { count: r.count, path: r.path })); })}
        />
      </div>
      <p className="status" role="status">
        {message ?? t('vocab.total', { count: items.length })}
      </p>
      {items.length === 0 ? <p className="help">{t('vocab.empty')}</p> : null}
      <table className="vocab-table" data-testid="vocab-table">
        <VocabHead />
        <tbody>
          {items.map((v) =>
            editing?.id === v.id ? (
              <EditRow
                key={v.id}
                editing={editing}
                onEdit={setEditing}
                onSave={() => void runUnlessDuplicate(editing.wrong, editing.right, v.id, () => bridge.vocabulary.update({ id: v.id, wrong: editing.wrong, right: editing.right }), () => setEditing(null))}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <ItemRow
                key={v.id}
                v={v}
                confirming={confirmId === v.id}
                onEdit={() => setEditing({ id: v.id, wrong: v.wrong, right: v.right })}
                onAskDelete={() => setConfirmId(v.id)}
                onDelete={() => void run(() => bridge.vocabulary.remove({ id: v.id }), () => setConfirmId(null))}
                onCancelDelete={() => setConfirmId(null)}
              />
            ),
          )}
        </tbody>
      </table>
    </>
  );
}

/** The form that adds a pair (cleared once added), and the error of the last vocabulary action. */
function AddForm({ error, onAdd }: { readonly error: string | null; readonly onAdd: (wrong: string, right: string, clear: () => void) => void }) {
  const { t } = useI18n();
  const [wrong, setWrong] = useState('');
  const [right, setRight] = useState('');
  return (
    <form
      className="group vocab-add"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd(wrong, right, () => {
          setWrong('');
          setRight('');
        });
      }}
    >
      <div className="row">
        <label htmlFor="vocab-wrong">{t('vocab.wrong')}</label>
        <input id="vocab-wrong" type="text" className="text" maxLength={200} value={wrong} onChange={(e) => setWrong(e.currentTarget.value)} />
        <span aria-hidden="true">→</span>
        <label htmlFor="vocab-right">{t('vocab.right')}</label>
        <input id="vocab-right" type="text" className="text" maxLength={200} value={right} onChange={(e) => setRight(e.currentTarget.value)} />
        <button type="submit" className="primary" disabled={wrong.trim() === '' || right.trim() === ''}>
          {t('vocab.add')}
        </button>
      </div>
      {error ? (
        <p className="field-error row" role="alert" data-testid="vocab-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The table's header row. */
function VocabHead() {
  const { t } = useI18n();
  return (
  <thead>
    <tr>
      <th scope="col">{t('vocab.wrong')}</th>
      <th scope="col">{t('vocab.right')}</th>
      <th scope="col" title={t('vocab.counts.help')}>
        {t('vocab.counts.help')}
      </th>
      <th scope="col">
        <span className="sr-only">{t('vocab.edit')}</span>
      </th>
    </tr>
  </thead>
  );
}

type Editing = { id: number; wrong: string; right: string };

/** A pair being edited: its two fields, Save and Cancel. */
function EditRow({ editing, onEdit, onSave, onCancel }: { readonly editing: Editing; readonly onEdit: (e: Editing) => void; readonly onSave: () => void; readonly onCancel: () => void }) {
  const { t } = useI18n();
  return (
    <tr>
      <td>
        <input aria-label={t('vocab.wrong')} className="text" value={editing.wrong} onChange={(e) => onEdit({ ...editing, wrong: e.currentTarget.value })} />
      </td>
      <td>
        <input aria-label={t('vocab.right')} className="text" value={editing.right} onChange={(e) => onEdit({ ...editing, right: e.currentTarget.value })} />
      </td>
      <td />
      <td className="actions">
        <button type="button" className="primary" onClick={onSave}>
          {t('vocab.save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('vocab.cancel')}
        </button>
      </td>
    </tr>
  );
}

/** A pair with its counters, Edit and Delete (Delete asks first). */
function ItemRow(props: {
  readonly v: VocabItem;
  readonly confirming: boolean;
  readonly onEdit: () => void;
  readonly onAskDelete: () => void;
  readonly onDelete: () => void;
  readonly onCancelDelete: () => void;
}) {
  const { t } = useI18n();
  const { v, confirming, onEdit, onAskDelete, onDelete, onCancelDelete } = props;
  return (
    <tr>
      <td>{v.wrong}</td>
      <td>{v.right}</td>
      <td className="help">{v.asrHit + v.asrMiss + v.llmHit + v.llmMiss === 0 ? t('vocab.counts.none') : t('vocab.counts', { asrHit: v.asrHit, asrMiss: v.asrMiss, llmHit: v.llmHit, llmMiss: v.llmMiss })}</td>
      <td className="actions">
        {confirming ? (
          <span role="alertdialog" aria-label={t('vocab.deleteConfirm', { wrong: v.wrong, right: v.right })} className="inline">
            <button type="button" className="danger" onClick={onDelete}>
              {t('vocab.delete')}
            </button>
            <button type="button" onClick={onCancelDelete}>
              {t('vocab.cancel')}
            </button>
          </span>
        ) : (
          <>
            <button type="button" aria-label={`${t('vocab.edit')} ${v.wrong} → ${v.right}`} onClick={onEdit}>
              {t('vocab.edit')}
            </button>
            <button type="button" aria-label={`${t('vocab.delete')} ${v.wrong} → ${v.right}`} onClick={onAskDelete}>
              {t('vocab.delete')}
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
