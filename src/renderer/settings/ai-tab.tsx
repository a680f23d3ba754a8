import { NumberField } from '../components/number-field.tsx';
import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { TextAreaField } from '../components/text-area-field.tsx';
import { boolAt, numberAt, stringAt, valueAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { CacheReport } from './cache-report.tsx';
import { ModesEditor } from './modes-editor.tsx';
import { ProviderSection } from './provider-section.tsx';
import type { TabProps } from './tab-props.ts';

/** Built-in modes (FEATURES.md). A custom mode id already in the config is listed too. */
const builtInModes = ['proofread', 'translate_en', 'commandline_master'] as const;
const historyKey = 'ai_enhance.conversation_history';

/** AI: enhancement, default mode, the providers (picker, per-provider settings and key, Verify), history injection with the prompt-cache report, context note, modes. */
export function AiTab({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  const mode = stringAt(config, 'ai_enhance.mode', 'proofread');
  const modeOptions = builtInModes.map((m) => ({ value: m as string, label: t(`ai.mode.${m}`) }));
  if (!modeOptions.some((o) => o.value === mode)) modeOptions.push({ value: mode, label: mode });
  const num = (key: string, id: string, label: Parameters<typeof t>[0], fallback: number, help?: string) => (
    <NumberField
      id={id}
      label={t(label)}
      help={help}
      min={1}
      value={numberAt(config, `${historyKey}.${key}`, fallback)}
      notANumberMessage={t('error.notANumber')}
      error={saver.errors[`${historyKey}.${key}`]}
      onCommit={(v) => saver.save(`${historyKey}.${key}`, v)}
    />
  );

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
      <div className="group">
        <SwitchField
          id="history-injection"
          label={t('ai.history.enabled')}
          help={t('ai.history.enabled.help')}
          checked={boolAt(config, `${historyKey}.enabled`, false)}
          error={saver.errors[`${historyKey}.enabled`]}
          onChange={(v) => saver.save(`${historyKey}.enabled`, v)}
        />
        {num('max_entries', 'history-max-entries', 'ai.history.maxEntries', 10)}
        {num('refresh_threshold', 'history-refresh-threshold', 'ai.history.refreshThreshold', 50, t('ai.history.refreshThreshold.help'))}
        {num('max_history_chars', 'history-max-chars', 'ai.history.maxChars', 6000)}
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
      </div>
      <CacheReport bridge={bridge} deps={JSON.stringify(valueAt(config, 'ai_enhance') ?? null)} />

      <h2>{t('modes.section')}</h2>
      <ModesEditor bridge={bridge} />
    </>
  );
}
