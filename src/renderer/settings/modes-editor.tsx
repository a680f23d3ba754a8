import { useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ModeList } from '../hooks/use-mode-list.ts';
import { errorText } from '../lib/errors.ts';
import { modeLabel } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { ModeDeleteRow, NewModeButton } from './mode-file-actions.tsx';
import { ModeForm } from './mode-form.tsx';

/**
 * The modes: pick one, edit it as a form (mode-form.tsx). A file that cannot be read as a mode is shown
 * as its text with the problem, so it can be fixed; main validates every save before writing. "New mode"
 * starts one from a template; a mode the user added can be deleted, a built-in one says why it cannot.
 */
export function ModesEditor({ bridge, list }: { readonly bridge: TingxieBridge; readonly list: ModeList }) {
  const { t, lang } = useI18n();
  const { modes, reload } = list;
  const [picked, setPicked] = useState('');
  const id = picked !== '' && modes.some((m) => m.id === picked) ? picked : (modes[0]?.id ?? '');
  const mode = modes.find((m) => m.id === id);
  const singles = modes.filter((m) => m.problem === null && m.steps === null).map((m) => ({ id: m.id, label: modeLabel(m.id, m.label, lang) }));
  const save = (text: string): Promise<string | null> =>
    bridge.modes.save({ id, text }).then(
      () => {
        reload();
        return null;
      },
      (e: unknown) => errorText(e),
    );
  return (
    <div className="group" data-testid="modes-editor">
      <div className="row">
        <label className="row-label grow" htmlFor="mode-select">
          {t('modes.edit')}
        </label>
        <select id="mode-select" value={id} onChange={(e) => setPicked(e.currentTarget.value)}>
          {modes.map((m) => (
            <option key={m.id} value={m.id}>
              {modeLabel(m.id, m.label, lang)}
            </option>
          ))}
        </select>
        <NewModeButton bridge={bridge} modes={modes} onCreated={(created) => (setPicked(created), reload())} />
      </div>
      {list.error ? <p className="field-error row">{list.error}</p> : null}
      {mode && mode.problem === null ? <ModeForm key={mode.id} mode={mode} singles={singles.filter((s) => s.id !== mode.id)} onSave={save} /> : null}
      {mode && mode.problem !== null ? <BrokenModeFile key={`${mode.id}\n${mode.text}`} id={mode.id} text={mode.text} problem={mode.problem} onSave={save} /> : null}
      {mode ? <ModeDeleteRow key={`delete-${mode.id}`} bridge={bridge} mode={mode} label={modeLabel(mode.id, mode.label, lang)} onDeleted={() => (setPicked(''), reload())} /> : null}
    </div>
  );
}

/** A mode file the parser refused: its text, the problem, and Save (main checks it again). */
function BrokenModeFile({ id, text, problem, onSave }: { readonly id: string; readonly text: string; readonly problem: string; readonly onSave: (text: string) => Promise<string | null> }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState(text);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="row-block">
      <span className="field-error" id="mode-text-problem">
        {t('modes.problem', { id, message: problem })}
      </span>
      <textarea
        id="mode-text"
        aria-label={t('modes.file', { id })}
        aria-describedby="mode-text-problem"
        className="code"
        spellCheck={false}
        value={draft}
        maxLength={50_000}
        onChange={(e) => setDraft(e.currentTarget.value)}
      />
      <div className="inline">
        <button type="button" className="primary" disabled={draft === text} onClick={() => void onSave(draft).then(setError)}>
          {t('common.save')}
        </button>
        {error ? (
          <span className="field-error" role="alert" data-testid="mode-status">
            {error}
          </span>
        ) : null}
      </div>
    </div>
  );
}
