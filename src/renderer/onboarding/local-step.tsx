import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { TextField } from '../components/text-field.tsx';
import type { ConfigSaver } from '../hooks/use-config-saver.ts';
import { useModels, type ModelsState } from '../hooks/use-models.ts';
import { stringAt } from '../lib/config-view.ts';
import { speechModelName } from '../lib/human-names.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { ModelManager, type RecommendFor } from '../settings/model-manager.tsx';

/** Props of a setup step. */
export interface SetupStepProps {
  readonly bridge: TingxieBridge;
  readonly config: ConfigSnapshot;
  readonly saver: ConfigSaver;
  /** Whether dictation can now recognise speech with this choice. */
  readonly onReady: (ready: boolean) => void;
}

/**
 * Step 2, on this computer: which languages the user will speak (the UI language's by default, so the first
 * card is the model a new install's config names), the recommended models for it as the same cards Settings
 * shows, and the download address. Downloading or using a model makes it the local engine's model.
 */
export function LocalStep({ bridge, config, saver, onReady }: SetupStepProps) {
  const { t, lang } = useI18n();
  const models = useModels(bridge);
  const [speak, setSpeak] = useState<RecommendFor>(lang);
  const local = stringAt(config, 'asr.engine', 'local') === 'local';
  const model = stringAt(config, 'asr.local.model', 'base');
  const choose = (name: string): void => {
    void saver.save('asr.engine', 'local');
    void saver.save('asr.local.model', name);
  };
  // Starting a download chooses that model too: once it is installed, dictation uses it with no further step.
  const state: ModelsState = {
    ...models,
    download: (name) => {
      choose(name);
      models.download(name);
    },
  };
  const current = models.models.find((m) => m.name === model);
  const installed = local && current?.installed === true;
  // The config's default model is not the user's choice yet: it is marked only once installed or being downloaded.
  const chosen = local && current !== undefined && (current.installed || (current.download !== null && current.download.state !== 'failed'));
  useEffect(() => onReady(installed), [installed, onReady]);
  return (
    <>
      <h2 className="step-heading">{t('onboarding.local.heading')}</h2>
      <p className="help step-help">{t('onboarding.local.pick')}</p>
      <fieldset className="speak-choice" role="radiogroup">
        <legend>{t('onboarding.speak')}</legend>
        {(lang === 'zh' ? (['zh', 'multi'] as const) : (['en', 'multi'] as const)).map((v) => (
          <label key={v}>
            <input type="radio" name="speak" value={v} checked={speak === v} onChange={() => setSpeak(v)} />
            {t(`onboarding.speak.${v}`)}
          </label>
        ))}
      </fieldset>
      <ModelManager state={state} selected={chosen ? model : ''} onUse={choose} recommendedOnly recommendFor={speak} />
      {installed ? (
        <p className="status status-set step-status" role="status">
          {t('onboarding.local.ready', { model: speechModelName(model, lang) })}
        </p>
      ) : null}
      <div className="group step-group">
        <TextField
          id="onboarding-mirror"
          label={t('onboarding.mirror')}
          help={t('onboarding.mirror.help')}
          maxLength={2048}
          value={stringAt(config, 'asr.local.models_mirror', '')}
          error={saver.errors['asr.local.models_mirror']}
          onCommit={(v) => saver.save('asr.local.models_mirror', v)}
        />
      </div>
    </>
  );
}
