import { NumberField } from '../components/number-field.tsx';
import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { TextAreaField } from '../components/text-area-field.tsx';
import { useModeList } from '../hooks/use-mode-list.ts';
import { boolAt, choiceAt, numberAt, stringAt, valueAt } from '../lib/config-view.ts';
import { modeLabel } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { CacheReport } from './cache-report.tsx';
import { ModesEditor } from './modes-editor.tsx';
import { ProviderSection } from './provider-section.tsx';
import type { TabProps } from './tab-props.ts';

const historyKey = 'ai_enhance.conversation_history';
/** ai_enhance.input_context: what is said about the app being dictated into. */
const INPUT_CONTEXT_LEVELS = ['off', 'basic', 'detailed'] as const;

/** AI: enhancement, default mode, the providers (picker, per-provider settings and key, Verify), history injection with the prompt-cache report, context note, modes. */
export function AiTab({ config, saver, bridge }: TabProps) {
  const { t, lang } = useI18n();
  const modeList = useModeList(bridge);
  const mode = stringAt(config, 'ai_enhance.mode', 'proofread');
  // Every mode that loads, chains and the user's own included, by label (a broken file cannot run: main falls back to proofread).
  const modeOptions = modeList.modes.filter((m) => m.problem === null).map((m) => ({ value: m.id, label: modeLabel(m.id, m.label, lang) }));
  if (!modeOptions.some((o) => o.value === mode)) modeOptions.push({ value: mode, label: modeLabel(mode, undefined, lang) });
  return (
    <>
      <h2>{t('settings.tab.ai')}</h2>
      <div className="group">
        <SwitchField
          id="ai-enabled"
          label={t('ai.enabled')}
          help={t('ai.enabled.help')}
          checked={boolAt(config, 'ai_enhance.enabled', false)}
          error={saver.errors['ai_enhance.enabled']}
          onChange={(v) => saver.save('ai_enhance.enabled', v)}
        />
        <SelectField
          id="ai-mode"
          label={t('ai.mode')}
          value={mode}
          options={modeOptions}
          error={saver.errors['ai_enhance.mode']}
          onChange={(v) => saver.save('ai_enhance.mode', v)}
        />
        <SwitchField
          id="ai-thinking"
          label={t('ai.thinking')}
          help={t('ai.thinking.help')}
          checked={boolAt(config, 'ai_enhance.thinking', false)}
          error={saver.errors['ai_enhance.thinking']}
          onChange={(v) => saver.save('ai_enhance.thinking', v)}
        />
      </div>

      <h2>{t('ai.providers.section')}</h2>
      <ProviderSection config={config} saver={saver} bridge={bridge} />

      <h2>{t('ai.history.section')}</h2>
      <HistoryGroup config={config} saver={saver} bridge={bridge} />

      <h2>{t('modes.section')}</h2>
      <ModesEditor bridge={bridge} list={modeList} />
    </>
  );
}

/** History injection: its switch and limits, proper nouns across modes, the context note and the input context. */
function HistoryGroup({ config, saver, bridge }: Pick<TabProps, 'config' | 'saver' | 'bridge'>) {
  const { t } = useI18n();
  const num = (key: string, id: string, label: Parameters<typeof t>[0], fallback: number, help?: string) => (
    <NumberField
      id={id}
      label={t(label)}
      help={help}
      min={1}
      value={numberAt(config, `${historyKey}.${key}`, fallback)}
      notANumberMessage={t('error.notANumber')}
      error={saver.errors[`${historyKey}.${key}`]}
      onCommit={(v) => saver.save(`${historyKey}.${key}`, v, t(label))}
    />
  );

  return (
    <div className="group">
      <SwitchField
        id="history-injection"
        label={t('ai.history.enabled')}
        help={t('ai.history.enabled.help')}
        checked={boolAt(config, `${historyKey}.enabled`, false)}
        error={saver.errors[`${historyKey}.enabled`]}
        onChange={(v) => saver.save(`${historyKey}.enabled`, v)}
      />
      {/* The limits, the prompt-cache report and the token budget: one line each on what they change. */}
      <details className="advanced advanced-in-card" data-testid="ai-history-advanced">
        <summary>{t('settings.advanced')}</summary>
        {num('max_entries', 'history-max-entries', 'ai.history.maxEntries', 10, t('ai.history.maxEntries.help'))}
        {num('refresh_threshold', 'history-refresh-threshold', 'ai.history.refreshThreshold', 50, t('ai.history.refreshThreshold.help'))}
        {num('max_history_chars', 'history-max-chars', 'ai.history.maxChars', 6000, t('ai.history.maxChars.help'))}
        <CacheReport bridge={bridge} deps={JSON.stringify(valueAt(config, 'ai_enhance') ?? null)} />
      </details>
      <SwitchField
        id="history-share-proper-nouns"
        label={t('ai.history.shareProperNouns')}
        help={t('ai.history.shareProperNouns.help')}
        checked={boolAt(config, `${historyKey}.share_proper_nouns`, true)}
        error={saver.errors[`${historyKey}.share_proper_nouns`]}
        onChange={(v) => saver.save(`${historyKey}.share_proper_nouns`, v)}
      />
      <TextAreaField
        id="context-note"
        label={t('ai.contextNote')}
        help={t('ai.contextNote.help')}
        maxLength={4000}
        value={stringAt(config, 'ai_enhance.context_note', '')}
        error={saver.errors['ai_enhance.context_note']}
        onCommit={(v) => saver.save('ai_enhance.context_note', v)}
      />
      <SelectField
        id="ai-input-context"
        label={t('ai.inputContext')}
        help={t('ai.inputContext.help')}
        value={choiceAt(config, 'ai_enhance.input_context', INPUT_CONTEXT_LEVELS, 'basic')}
        options={INPUT_CONTEXT_LEVELS.map((l) => ({ value: l, label: t(`ai.inputContext.${l}`) }))}
        error={saver.errors['ai_enhance.input_context']}
        onChange={(v) => saver.save('ai_enhance.input_context', v)}
      />
    </div>
  );
}
