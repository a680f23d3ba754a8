import { useI18n } from '../lib/i18n-context.ts';

/** Props of a chain's step list. */
export interface ChainStepsProps {
  readonly steps: readonly string[];
  /** The single-step modes a step can be. */
  readonly singles: readonly { readonly id: string; readonly label: string }[];
  readonly onChange: (steps: readonly string[]) => void;
}

/** A chain's steps in run order: each one chosen from the single-step modes, moved up/down, removed; one more added. */
export function ChainSteps({ steps, singles, onChange }: ChainStepsProps) {
  const { t } = useI18n();
  const labelOf = (id: string) => singles.find((s) => s.id === id)?.label ?? id;
  const move = (i: number, by: number) => {
    const next = [...steps];
    const [s] = next.splice(i, 1);
    if (s !== undefined) next.splice(i + by, 0, s);
    onChange(next);
  };
  return (
    <fieldset className="row-block chain-steps" data-testid="chain-steps">
      <legend className="row-label">{t('modes.form.steps')}</legend>
      <span className="help">{t('modes.form.steps.help')}</span>
      <ol>
        {steps.map((id, i) => (
          <li key={`${i}:${id}`} className="inline">
            <select
              aria-label={t('modes.form.step', { n: i + 1 })}
              value={id}
              onChange={(e) => onChange(steps.map((s, j) => (j === i ? e.currentTarget.value : s)))}
            >
              {singles.some((s) => s.id === id) ? null : <option value={id}>{id}</option>}
              {singles.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
            <button type="button" aria-label={t('modes.form.stepUp', { name: labelOf(id) })} disabled={i === 0} onClick={() => move(i, -1)}>
              ↑
            </button>
            <button type="button" aria-label={t('modes.form.stepDown', { name: labelOf(id) })} disabled={i === steps.length - 1} onClick={() => move(i, 1)}>
              ↓
            </button>
            <button type="button" aria-label={t('modes.form.stepRemove', { name: labelOf(id) })} onClick={() => onChange(steps.filter((_, j) => j !== i))}>
              {t('modes.form.remove')}
            </button>
          </li>
        ))}
      </ol>
      <div className="inline">
        <button type="button" disabled={singles.length === 0} onClick={() => onChange([...steps, singles[0]?.id ?? ''])}>
          {t('modes.form.addStep')}
        </button>
      </div>
    </fieldset>
  );
}
