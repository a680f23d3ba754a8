import { useCallback, useEffect, useState } from 'react';
import type { TextRulesListWire, TextRulesTryWire } from '../../shared/ipc/text-rules-contract.ts';
import { SwitchField } from '../components/switch-field.tsx';
import { useModeList } from '../hooks/use-mode-list.ts';
import { boolAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { modeLabel } from '../lib/human-names.ts';
import { Lines, ReplacementsEditor, SnippetsEditor } from './rules-editors.tsx';
import type { TabProps } from './tab-props.ts';

const SWITCHES = [
  ['text_rules.fillers', 'rules.fillers', 'rules.fillers.help'],
  ['text_rules.self_corrections', 'rules.corrections', 'rules.corrections.help'],
  ['text_rules.replacements', 'rules.replacements', null],
  ['text_rules.snippets', 'rules.snippets', null],
] as const;

/** Settings › Text rules: the switches (per mode too), replacement rules, snippets, and a box to try them. */
export function RulesTab({ config, saver, bridge }: TabProps) {
  const { t, lang } = useI18n();
  const { modes } = useModeList(bridge);
  const [rules, setRules] = useState<TextRulesListWire | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    bridge.rules.list().then(setRules, (e: unknown) => setError(errorText(e)));
  }, [bridge]);
  useEffect(load, [load]);
  const run = async (call: () => Promise<unknown>): Promise<boolean> => {
    try {
      await call();
      setError(null);
      load();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };
  return (
    <>
      <h2>{t('settings.tab.rules')}</h2>
      <div className="group">
        <p className="row help">{t('rules.intro')}</p>
        {SWITCHES.map(([key, label, help]) => (
          <SwitchField key={key} id={key.replace('.', '-')} label={t(label)} {...(help ? { help: t(help) } : {})} checked={boolAt(config, key, true)} error={saver.errors[key]} onChange={(v) => saver.save(key, v)} />
        ))}
      </div>
      <h3>{t('rules.modes')}</h3>
      <p className="help">{t('rules.modes.help')}</p>
      <div className="group" data-testid="rules-modes">
        {modes.filter((m) => m.problem === null).map((m) => (
          <SwitchField key={m.id} id={`rules-mode-${m.id}`} label={modeLabel(m.id, m.label, lang)} checked={boolAt(config, `text_rules.modes.${m.id}`, true)} error={saver.errors[`text_rules.modes.${m.id}`]} onChange={(v) => saver.save(`text_rules.modes.${m.id}`, v)} />
        ))}
      </div>
      {rules?.damaged ? <p className="field-error" role="alert">{t('rules.damaged', { reason: rules.damaged })}</p> : null}
      {error ? (
        <p className="field-error" role="alert" data-testid="rules-error">
          {error}
        </p>
      ) : null}
      <ReplacementsEditor rules={rules?.replacements ?? []} onSave={(r) => run(() => bridge.rules.saveReplacement(r))} onRemove={(id) => void run(() => bridge.rules.remove({ id }))} />
      <SnippetsEditor snippets={rules?.snippets ?? []} onSave={(s) => run(() => bridge.rules.saveSnippet(s))} onRemove={(id) => void run(() => bridge.rules.remove({ id }))} />
      <TryBox onTry={(text) => bridge.rules.try({ text })} />
    </>
  );
}

/** A text box run through the dictation's own pipeline, with what was removed and which rules fired. */
function TryBox({ onTry }: { readonly onTry: (text: string) => Promise<TextRulesTryWire> }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [result, setResult] = useState<TextRulesTryWire | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sep = t('vocab.listSeparator');
  return (
    <>
      <h3>{t('rules.try.title')}</h3>
      <form
        className="group row-block"
        onSubmit={(e) => {
          e.preventDefault();
          onTry(text).then(
            (r) => {
              setResult(r);
              setError(null);
            },
            (err: unknown) => setError(errorText(err)),
          );
        }}
      >
        <label htmlFor="rules-try-input">{t('rules.try.input')}</label>
        <textarea id="rules-try-input" rows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} />
        <div>
          <button type="submit" disabled={text.trim() === ''}>
            {t('rules.try.run')}
          </button>
        </div>
        {error ? <p className="field-error">{error}</p> : null}
        {result ? (
          <div data-testid="rules-try-result">
            <p className="help">{t('rules.try.output')}</p>
            <p className="row-label" data-testid="rules-try-output">
              <Lines text={result.text} />
            </p>
            {result.report.removed.length === 0 && result.report.fired.length === 0 ? <p className="help">{t('rules.try.nothing')}</p> : null}
            {result.report.removed.length > 0 ? <p className="help">{t('rules.try.removed', { items: result.report.removed.map((r) => `“${r.text}”`).join(sep) })}</p> : null}
            {result.report.fired.length > 0 ? <p className="help">{t('rules.try.fired', { items: result.report.fired.map((f) => `${f.from} → ${f.to.split('\n')[0] ?? ''}`).join(sep) })}</p> : null}
          </div>
        ) : null}
      </form>
    </>
  );
}
