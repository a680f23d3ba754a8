import { useState } from 'react';
import type { ModeItem } from '../../shared/ipc/settings-types.ts';
import { modeFilePrompt, writeModeFile } from '../../shared/mode-file.ts';
import type { MessageKey } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { ChainSteps } from './chain-steps.tsx';

/** Props of the form of one (readable) mode file. */
export interface ModeFormProps {
  readonly mode: ModeItem;
  /** Single-step modes a chain can run: id and the label to show. */
  readonly singles: readonly { readonly id: string; readonly label: string }[];
  /** Saves the rewritten file; resolves to an error text, or null when saved. */
  readonly onSave: (text: string) => Promise<string | null>;
}

interface Draft {
  readonly label: string;
  readonly order: string;
  readonly steps: readonly string[] | null;
  readonly prompt: string;
}

/** What is wrong with the draft, said in the UI language before main's own check; null when it can be saved. */
function draftProblem(d: Draft): MessageKey | null {
  if (!/^-?\d+(\.\d+)?$/.test(d.order.trim())) return 'modes.form.orderInvalid';
  if (d.steps !== null && d.steps.length < 2) return 'modes.form.stepsTooFew';
  if (d.steps === null && d.prompt.trim() === '') return 'modes.form.promptEmpty';
  return null;
}

/**
 * A mode as a form: name, order, the chain's steps (chains only) and the prompt. Saving rewrites only those
 * fields of the file (shared/mode-file.ts), so unknown front-matter keys and comments survive.
 */
export function ModeForm({ mode, singles, onSave }: ModeFormProps) {
  const { t } = useI18n();
  const initial: Draft = { label: mode.label, order: String(mode.order), steps: mode.steps, prompt: modeFilePrompt(mode.text) };
  const [draft, setDraft] = useState<Draft>(initial);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [seenText, setSeenText] = useState(mode.text);
  if (seenText !== mode.text) {
    // The file changed (our save coming back, or an edit elsewhere): show it, keep the "Saved" status.
    setSeenText(mode.text);
    setDraft(initial);
  }
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const edit = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setStatus(null);
  };
  const save = async () => {
    const problem = draftProblem(draft);
    if (problem !== null) {
      setStatus({ ok: false, text: t(problem) });
      return;
    }
    const text = writeModeFile(mode.text, { label: draft.label.trim() || mode.id, order: Number(draft.order), steps: draft.steps, prompt: draft.prompt });
    const error = await onSave(text);
    setStatus(error === null ? { ok: true, text: t('modes.saved', { name: draft.label.trim() || mode.id }) } : { ok: false, text: error });
  };
  const chain = draft.steps !== null;
  return (
    <form
      className="mode-form"
      data-testid="mode-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="row">
        <label className="row-label grow" htmlFor="mode-label">
          {t('modes.form.label')}
        </label>
        <input id="mode-label" type="text" className="text" maxLength={80} value={draft.label} onChange={(e) => edit({ label: e.currentTarget.value })} />
      </div>
      <div className="row">
        <span className="row-text">
          <label className="row-label" htmlFor="mode-order">
            {t('modes.form.order')}
          </label>
          <span className="help" id="mode-order-help">
            {t('modes.form.order.help')}
          </span>
        </span>
        <input id="mode-order" type="number" step={1} aria-describedby="mode-order-help" value={draft.order} onChange={(e) => edit({ order: e.currentTarget.value })} />
      </div>
      {chain ? <ChainSteps steps={draft.steps ?? []} singles={singles} onChange={(steps) => edit({ steps })} /> : null}
      <div className="row-block">
        <span className="row-text">
          <label className="row-label" htmlFor="mode-prompt">
            {t(chain ? 'modes.form.description' : 'modes.form.prompt')}
          </label>
          <span className="help" id="mode-prompt-help">
            {t(chain ? 'modes.form.description.help' : 'modes.form.prompt.help')}
          </span>
        </span>
        <textarea id="mode-prompt" aria-describedby="mode-prompt-help" className="mode-prompt" maxLength={45_000} value={draft.prompt} onChange={(e) => edit({ prompt: e.currentTarget.value })} />
        <div className="inline">
          <button type="submit" className="primary" disabled={!dirty}>
            {t('common.save')}
          </button>
          {status ? (
            <span className={status.ok ? 'status status-set' : 'field-error'} role={status.ok ? 'status' : 'alert'} data-testid="mode-status">
              {status.text}
            </span>
          ) : null}
        </div>
      </div>
    </form>
  );
}
