import { useState } from 'react';
import { AUTO_LANGUAGE, FOLLOW_UI_LANGUAGE, MIXED_ZH_EN, followedRecognitionLanguage } from '../../shared/recognition-language.ts';
import { urlHoldsCredential } from '../../shared/redact.ts';
import { Banner } from '../components/banner.tsx';
import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { TextField } from '../components/text-field.tsx';
import { useModels } from '../hooks/use-models.ts';
import { boolAt, choiceAt, stringAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import { languageName, speechModelName } from '../lib/human-names.ts';
import { useI18n, type Translate } from '../lib/i18n-context.ts';
import type { UiLanguage } from '../lib/i18n.ts';
import { ApiKeyField } from './api-key-field.tsx';
import { ModelManager } from './model-manager.tsx';
import type { TabProps } from './tab-props.ts';

const engines = ['local', 'remote'] as const;
/** asr.chinese_script: Traditional ↔ Simplified conversion of the transcript. */
const CHINESE_SCRIPTS = ['auto', 'simplified', 'traditional', 'as-recognized'] as const;
/** asr.language choices: the app's language (default), the zh-en mix, single languages, and detection last (unreliable on short clips). */
const LANGUAGES = [FOLLOW_UI_LANGUAGE, MIXED_ZH_EN, 'zh', 'en', 'yue', 'ja', 'ko', AUTO_LANGUAGE] as const;

/** The recognition languages offered, by name in the UI language; a configured one not in the list is kept. */
function languageOptions(language: string, t: Translate, lang: UiLanguage): { value: string; label: string }[] {
  const languageLabel = (l: string): string =>
    l === AUTO_LANGUAGE ? t('speech.language.auto') : l === FOLLOW_UI_LANGUAGE ? t('speech.language.follow-ui', { language: languageName(followedRecognitionLanguage(lang), lang) }) : languageName(l, lang);
  const langOptions = LANGUAGES.map((l) => ({ value: l as string, label: languageLabel(l) }));
  if (!langOptions.some((o) => o.value === language)) langOptions.push({ value: language, label: languageName(language, lang) });
  return langOptions;
}

/** Speech: engine, language, local model + model manager, remote endpoint with its write-only key. */
export function SpeechTab({ config, saver, bridge }: TabProps) {
  const { t, lang } = useI18n();
  const modelsState = useModels(bridge);
  const { models } = modelsState;
  const language = stringAt(config, 'asr.language', FOLLOW_UI_LANGUAGE);
  const langOptions = languageOptions(language, t, lang);
  const model = stringAt(config, 'asr.local.model', 'base');
  const modelOptions = models.map((m) => ({ value: m.name, label: t(m.installed ? 'speech.model.installed' : 'speech.model.notInstalled', { name: speechModelName(m.name, lang) }) }));
  const engine = choiceAt(config, 'asr.engine', engines, 'local');
  // Known only once the list has loaded: no warning flashes before it.
  const modelMissing = engine === 'local' && models.length > 0 && !models.some((m) => m.name === model && m.installed);
  if (!modelOptions.some((o) => o.value === model)) modelOptions.unshift({ value: model, label: speechModelName(model, lang) });
  return (
    <>
      <h2>{t('settings.tab.speech')}</h2>
      {modelMissing ? (
        <Banner tone="warning" testId="model-missing">
          {t('speech.modelMissing', { model: speechModelName(model, lang) })}
        </Banner>
      ) : null}
      <div className="group">
        <SelectField
          id="asr-engine"
          label={t('speech.engine')}
          value={engine}
          options={engines.map((e) => ({ value: e, label: t(`speech.engine.${e}`) }))}
          error={saver.errors['asr.engine']}
          onChange={(v) => saver.save('asr.engine', v)}
        />
        <SelectField
          id="asr-language"
          label={t('speech.language')}
          help={language === AUTO_LANGUAGE ? t('speech.language.auto.help') : undefined}
          value={language}
          options={langOptions}
          error={saver.errors['asr.language']}
          onChange={(v) => saver.save('asr.language', v)}
        />
        <SelectField
          id="asr-chinese-script"
          label={t('speech.chineseScript')}
          help={t('speech.chineseScript.help')}
          value={choiceAt(config, 'asr.chinese_script', CHINESE_SCRIPTS, 'auto')}
          options={CHINESE_SCRIPTS.map((s) => ({ value: s, label: t(`speech.chineseScript.${s}`) }))}
          error={saver.errors['asr.chinese_script']}
          onChange={(v) => saver.save('asr.chinese_script', v)}
        />
        <SelectField id="asr-model" label={t('speech.model')} value={model} options={modelOptions} error={saver.errors['asr.local.model']} onChange={(v) => saver.save('asr.local.model', v)} />
        <SwitchField
          id="asr-adaptive"
          label={t('speech.adaptive')}
          help={t('speech.adaptive.help')}
          checked={boolAt(config, 'asr.local.adaptive_context', true)}
          error={saver.errors['asr.local.adaptive_context']}
          onChange={(v) => saver.save('asr.local.adaptive_context', v)}
        />
        <SwitchField
          id="asr-warm-up"
          label={t('speech.warmUp')}
          help={t('speech.warmUp.help')}
          checked={boolAt(config, 'asr.local.warm_up', true)}
          error={saver.errors['asr.local.warm_up']}
          onChange={(v) => saver.save('asr.local.warm_up', v)}
        />
        <SwitchField
          id="asr-decode-while-speaking"
          label={t('speech.decodeWhileSpeaking')}
          help={t('speech.decodeWhileSpeaking.help')}
          checked={boolAt(config, 'asr.local.decode_while_speaking', true)}
          error={saver.errors['asr.local.decode_while_speaking']}
          onChange={(v) => saver.save('asr.local.decode_while_speaking', v)}
        />
      </div>
      <h2>{t('speech.models')}</h2>
      <ModelManager state={modelsState} selected={model} onUse={(name) => void saver.save('asr.local.model', name)} />
      <ModelsExtra config={config} saver={saver} bridge={bridge} />
      <RemoteSection config={config} saver={saver} bridge={bridge} />
    </>
  );
}

/** Below the model manager: the models' download mirror, and the way back to onboarding. */
function ModelsExtra({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  return (
    <div className="group models-extra">
      <TextField
        id="asr-mirror"
        label={t('speech.mirror')}
        help={t('onboarding.mirror.help')}
        maxLength={2048}
        value={stringAt(config, 'asr.local.models_mirror', '')}
        error={saver.errors['asr.local.models_mirror']}
        onCommit={(v) => saver.save('asr.local.models_mirror', v)}
      />
      <div className="row">
        <span className="row-text">
          <span className="row-label">{t('onboarding.reopen')}</span>
          <span className="help">{t('onboarding.reopen.help')}</span>
        </span>
        <button type="button" onClick={() => void bridge.onboarding.open().catch((e: unknown) => console.warn(errorText(e)))}>
          {t('onboarding.reopen')}
        </button>
      </div>
    </div>
  );
}

/** The remote engine: its endpoint (a key typed into the URL is refused), model and write-only key. */
function RemoteSection({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  // A key typed into the URL is refused in the UI language before it reaches config.json.
  const [urlError, setUrlError] = useState<string | null>(null);
  return (
    <>
      <h2>{t('speech.remote.section')}</h2>
      <div className="group">
        <TextField
          id="asr-remote-url"
          label={t('speech.remote.url')}
          maxLength={2048}
          value={stringAt(config, 'asr.remote.base_url', 'https://api.openai.com/v1')}
          error={urlError ?? saver.errors['asr.remote.base_url']}
          onCommit={async (v) => {
            const keyInside = urlHoldsCredential(v.trim());
            setUrlError(keyInside ? t('ai.provider.url.keyInside') : null);
            return keyInside ? false : saver.save('asr.remote.base_url', v);
          }}
        />
        <TextField
          id="asr-remote-model"
          label={t('speech.remote.model')}
          maxLength={200}
          value={stringAt(config, 'asr.remote.model', 'whisper-1')}
          error={saver.errors['asr.remote.model']}
          onCommit={(v) => saver.save('asr.remote.model', v)}
        />
        <ApiKeyField bridge={bridge} provider="asr" secretName="asr:remote" label={t('speech.remote.key')} server={stringAt(config, 'asr.remote.base_url', '')} />
      </div>
    </>
  );
}
