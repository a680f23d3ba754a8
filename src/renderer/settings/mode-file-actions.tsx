import { useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ModeItem } from '../../shared/ipc/settings-types.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** The first free id `my-mode`, `my-mode-2`, … (file names in the modes folder; modeIdSchema's characters). */
export function newModeId(taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has('my-mode')) return 'my-mode';
  let n = 2;
  while (used.has(`my-mode-${n}`)) n++;
  return `my-mode-${n}`;
}

/**
 * A new mode's file: the same front matter as the built-ins (src/main/enhance/builtin-modes.ts), after
 * them in the menu, with instructions to start from (the form then edits it).
 */
export function newModeText(label: string, prompt: string): string {
  return `---\nlabel: ${label}\norder: 60\n---\n${prompt}\n`;
}

/** "New mode" next to the mode picker: writes a mode from the template and opens it in the form. */
export function NewModeButton({ bridge, modes, onCreated }: { readonly bridge: TingxieBridge; readonly modes: readonly ModeItem[]; readonly onCreated: (id: string) => void }) {
  const { t } = useI18n();
  const [error, setError] = useState<string | null>(null);
  const create = (): void => {
    const id = newModeId(modes.map((m) => m.id));
    bridge.modes.save({ id, text: newModeText(t('modes.new.label'), t('modes.new.prompt')) }).then(
      () => (setError(null), onCreated(id)),
      (e: unknown) => setError(errorText(e)),
    );
  };
  return (
    <>
      <button type="button" onClick={create} data-testid="mode-new">
        {t('modes.new')}
      </button>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}

/**
 * Under a mode's form: Delete (asked once more) for a mode the user added; for a built-in one, why it
 * has no Delete — the app writes a missing built-in file again at start (ensureBuiltinModes).
 */
export function ModeDeleteRow({ bridge, mode, label, onDeleted }: { readonly bridge: TingxieBridge; readonly mode: ModeItem; readonly label: string; readonly onDeleted: () => void }) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (mode.builtin) {
    return (
      <p className="help row" data-testid="mode-builtin-note">
        {t('modes.builtin')}
      </p>
    );
  }
  const remove = (): void => {
    bridge.modes.delete({ id: mode.id }).then(
      () => (setAsking(false), onDeleted()),
      (e: unknown) => setError(errorText(e)),
    );
  };
  return (
    <div className="row inline" data-testid="mode-delete-row">
      {asking ? (
        <div className="inline" role="alertdialog" aria-label={t('modes.delete.confirm', { name: label })}>
          <span>{t('modes.delete.confirm', { name: label })}</span>
          <button type="button" className="danger" onClick={remove}>
            {t('modes.delete.yes')}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('modes.delete.no')}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setAsking(true)}>
          {t('modes.delete')}
        </button>
      )}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
