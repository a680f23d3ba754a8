import { useId, useState } from 'react';
import type { AppRule } from '../../shared/config/app-rules.ts';
import type { RecentApp } from '../../shared/ipc/app-rules-contract.ts';
import { modeLabel } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { OUTPUT_CHOICES, outputChoiceOf, ruleOutputOf, type OutputChoice } from './app-rules-output.ts';

/** What the editor is given: the rules as saved, the modes to pick from, the recent apps, and the save. */
export interface AppRulesEditorProps {
  readonly rules: readonly AppRule[];
  readonly modes: readonly { readonly id: string; readonly label: string }[];
  readonly recent: readonly RecentApp[];
  /** "Cmd" or "Ctrl" (the modifier of mod+Enter on this computer). */
  readonly mod: string;
  readonly error: string | undefined;
  /** Saves the whole list; resolves true when main accepted it. */
  readonly save: (rules: readonly AppRule[]) => Promise<boolean>;
}

type Labels = { readonly output: (c: OutputChoice) => string; readonly mode: (id: string) => string };

function useLabels(mod: string, modes: AppRulesEditorProps['modes']): Labels {
  const { t, lang } = useI18n();
  return {
    output: (c) => t(`apps.output.${c}`, { mod }),
    mode: (id) => (id === '' ? t('apps.rule.mode.keep') : modeLabel(id, modes.find((m) => m.id === id)?.label, lang)),
  };
}

/**
 * The rules: a form to add one (its app typed or picked from the recent ones) and a card per rule, in
 * matching order, where every part can be changed, the rule switched off, moved or removed. Each change
 * saves the whole list (main validates it against the config schema).
 */
export function AppRulesEditor(props: AppRulesEditorProps) {
  const { t } = useI18n();
  const { rules, save } = props;
  const labels = useLabels(props.mod, props.modes);
  const replace = (i: number, next: AppRule | null): Promise<boolean> => save(next === null ? rules.filter((_, j) => j !== i) : rules.map((r, j) => (j === i ? next : r)));
  const move = (i: number, by: -1 | 1): void => {
    const j = i + by;
    if (j < 0 || j >= rules.length) return;
    const next = [...rules];
    [next[i], next[j]] = [next[j] as AppRule, next[i] as AppRule];
    void save(next);
  };
  return (
    <div data-testid="app-rules">
      <AddRule {...props} labels={labels} onAdd={(r) => save([...rules, r])} />
      {props.error ? (
        <p className="field-error" role="alert" data-testid="app-rules-error">
          {props.error}
        </p>
      ) : null}
      {rules.length === 0 ? <p className="help">{t('apps.rules.empty')}</p> : null}
      <ol className="app-rules" aria-label={t('apps.rules')}>
        {rules.map((r, i) => (
          <RuleCard key={`${i}:${r.app}:${r.title}:${r.domain}`} rule={r} index={i} count={rules.length} modes={props.modes} labels={labels} onChange={(next) => replace(i, next)} onMove={(by) => move(i, by)} />
        ))}
      </ol>
    </div>
  );
}

/** Mode and output selects, shared by the add form and the cards. */
function ModeOutput({ idPrefix, mode, output, modes, labels, onMode, onOutput }: {
  readonly idPrefix: string;
  readonly mode: string;
  readonly output: OutputChoice;
  readonly modes: AppRulesEditorProps['modes'];
  readonly labels: Labels;
  readonly onMode: (id: string) => void;
  readonly onOutput: (c: OutputChoice) => void;
}) {
  const { t } = useI18n();
  const ids = ['', ...modes.map((m) => m.id)];
  if (!ids.includes(mode)) ids.push(mode);
  return (
    <>
      <label className="inline-field" htmlFor={`${idPrefix}-mode`}>
        <span>{t('apps.rule.mode')}</span>
        <select id={`${idPrefix}-mode`} value={mode} onChange={(e) => onMode(e.currentTarget.value)}>
          {ids.map((id) => (
            <option key={id} value={id}>
              {labels.mode(id)}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field" htmlFor={`${idPrefix}-output`}>
        <span>{t('apps.rule.output')}</span>
        <select id={`${idPrefix}-output`} value={output} onChange={(e) => onOutput(e.currentTarget.value as OutputChoice)}>
          {OUTPUT_CHOICES.map((c) => (
            <option key={c} value={c}>
              {labels.output(c)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function AddRule({ recent, modes, labels, onAdd }: AppRulesEditorProps & { readonly labels: Labels; readonly onAdd: (r: AppRule) => Promise<boolean> }) {
  const { t } = useI18n();
  const id = useId();
  const [app, setApp] = useState('');
  const [mode, setMode] = useState('');
  const [output, setOutput] = useState<OutputChoice>('default');
  const add = async (): Promise<void> => {
    const name = app.trim();
    if (name === '') return;
    if (await onAdd({ label: '', app: name, title: '', domain: '', mode, ...ruleOutputOf(output), enabled: true })) setApp('');
  };
  return (
    <form
      className="group app-rule-add"
      aria-label={t('apps.add.heading')}
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <div className="rule-grid">
        <label className="inline-field" htmlFor={`${id}-app`}>
          <span>{t('apps.rule.app')}</span>
          <input id={`${id}-app`} type="text" className="text" list={`${id}-recent`} maxLength={200} spellCheck={false} value={app} onChange={(e) => setApp(e.currentTarget.value)} />
        </label>
        <datalist id={`${id}-recent`}>
          {recent.map((r) => (
            <option key={r.app_name} value={r.app_name} />
          ))}
        </datalist>
        <ModeOutput idPrefix={`${id}-new`} mode={mode} output={output} modes={modes} labels={labels} onMode={setMode} onOutput={setOutput} />
      </div>
      <div className="row recent-apps">
        <span className="help">{recent.length === 0 ? t('apps.recent.none') : t('apps.recent')}</span>
        {recent.slice(0, 8).map((r) => (
          <button key={r.app_name} type="button" className="chip" aria-label={t('apps.recent.pick', { app: r.app_name })} onClick={() => setApp(r.app_name)}>
            {r.app_name}
          </button>
        ))}
        <span className="grow" />
        <button type="submit" className="primary" disabled={app.trim() === ''}>
          {t('apps.add')}
        </button>
      </div>
      <p className="help row">{t('apps.rule.app.help')}</p>
    </form>
  );
}

/** A text part of a rule, saved on blur or Enter (Escape puts the saved value back). */
function PartInput({ id, label, value, onCommit }: { readonly id: string; readonly label: string; readonly value: string; readonly onCommit: (v: string) => void }) {
  const [draft, setDraft] = useState(value);
  const [saved, setSaved] = useState(value);
  // The saved value changed (a save, a move, config.json edited): the field shows it (React's "adjust state on a prop change").
  if (saved !== value) {
    setSaved(value);
    setDraft(value);
  }
  const commit = (): void => {
    if (draft.trim() !== value) onCommit(draft.trim());
  };
  return (
    <label className="inline-field" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        type="text"
        className="text"
        spellCheck={false}
        maxLength={200}
        value={draft}
        onChange={(e) => setDraft(e.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(value);
        }}
      />
    </label>
  );
}

function RuleCard({ rule, index, count, modes, labels, onChange, onMove }: {
  readonly rule: AppRule;
  readonly index: number;
  readonly count: number;
  readonly modes: AppRulesEditorProps['modes'];
  readonly labels: Labels;
  readonly onChange: (next: AppRule | null) => Promise<boolean>;
  readonly onMove: (by: -1 | 1) => void;
}) {
  const { t } = useI18n();
  const id = `rule-${index}`;
  const set = (part: Partial<AppRule>): void => void onChange({ ...rule, ...part });
  const name = rule.label || rule.app || rule.title || rule.domain;
  return (
    <li className="group app-rule" aria-label={t('apps.rule.named', { n: index + 1, app: name })} data-testid="app-rule">
      <div className="row rule-head">
        <span className="rule-n" aria-hidden="true">
          {index + 1}
        </span>
        <label className="check">
          <input type="checkbox" checked={rule.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          <span>{t('apps.rule.enabled')}</span>
        </label>
        <span className="grow" />
        <button type="button" aria-label={t('apps.rule.up')} title={t('apps.rule.up')} disabled={index === 0} onClick={() => onMove(-1)}>
          ↑
        </button>
        <button type="button" aria-label={t('apps.rule.down')} title={t('apps.rule.down')} disabled={index === count - 1} onClick={() => onMove(1)}>
          ↓
        </button>
        <button type="button" className="danger" onClick={() => void onChange(null)}>
          {t('apps.rule.remove')}
        </button>
      </div>
      <div className="rule-grid">
        <PartInput id={`${id}-app`} label={t('apps.rule.app')} value={rule.app} onCommit={(app) => set({ app })} />
        <PartInput id={`${id}-title`} label={t('apps.rule.title')} value={rule.title} onCommit={(title) => set({ title })} />
        <PartInput id={`${id}-domain`} label={t('apps.rule.domain')} value={rule.domain} onCommit={(domain) => set({ domain })} />
        <ModeOutput idPrefix={id} mode={rule.mode} output={outputChoiceOf(rule)} modes={modes} labels={labels} onMode={(mode) => set({ mode })} onOutput={(c) => set(ruleOutputOf(c))} />
        <PartInput id={`${id}-label`} label={t('apps.rule.label')} value={rule.label} onCommit={(label) => set({ label })} />
      </div>
    </li>
  );
}
