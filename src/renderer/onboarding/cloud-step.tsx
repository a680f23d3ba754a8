import { useEffect, useState } from 'react';
import type { SpeechCheckResult } from '../../shared/ipc/onboarding-contract.ts';
import type { ProviderPreset } from '../../shared/ipc/settings-types.ts';
import { SelectField } from '../components/select-field.tsx';
import { TextField } from '../components/text-field.tsx';
import { stringAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import type { MessageKey } from '../lib/i18n.ts';
import { useI18n, type Translate } from '../lib/i18n-context.ts';
import { ApiKeyField } from '../settings/api-key-field.tsx';
import type { SetupStepProps } from './local-step.tsx';

/**
 * The provider presets (Settings › AI's list) that also run an OpenAI-compatible /audio/transcriptions endpoint,
 * with the speech model each documents. Anything else is "Other": the user types URL and model.
 */
const SPEECH_MODELS: Readonly<Record<string, string>> = {
  openai: 'whisper-1',
  groq: 'whisper-large-v3-turbo',
  siliconflow: 'FunAudioLLM/SenseVoiceSmall',
};
const CUSTOM = 'custom';

function checkText(t: Translate, r: SpeechCheckResult): string {
  if (r.ok) return t('onboarding.cloud.ok', { host: r.host, model: r.model, seconds: (r.elapsedMs / 1000).toFixed(1) });
  const known = ['auth', 'network', 'timeout', 'bad-request'];
  return t(`onboarding.cloud.fail.${known.includes(r.code ?? '') ? (r.code as string) : 'other'}` as MessageKey, { host: r.host });
}

/** Step 2, a cloud provider: preset → URL and model → key → one real transcription request. */
export function CloudStep({ bridge, config, saver, onReady }: SetupStepProps) {
  const { t } = useI18n();
  const [presets, setPresets] = useState<readonly ProviderPreset[]>([]);
  const [result, setResult] = useState<SpeechCheckResult | null>(null);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    bridge.providers.presets().then(
      (p) => setPresets(p.filter((x) => x.kind in SPEECH_MODELS)),
      (e: unknown) => setError(errorText(e)),
    );
  }, [bridge]);
  useEffect(() => onReady(result?.ok === true), [result, onReady]);
  const url = stringAt(config, 'asr.remote.base_url', '');
  // "Other" stays chosen while the user types a URL that happens to be a preset's.
  const [custom, setCustom] = useState(false);
  const chosen = custom ? CUSTOM : (presets.find((p) => p.defaultBaseURL === url)?.kind ?? CUSTOM);
  const pick = async (kind: string): Promise<void> => {
    setResult(null);
    setCustom(kind === CUSTOM);
    const p = presets.find((x) => x.kind === kind);
    if (p === undefined) return;
    await saver.save('asr.remote.base_url', p.defaultBaseURL);
    await saver.save('asr.remote.model', SPEECH_MODELS[kind] ?? '');
  };
  const test = async (): Promise<void> => {
    setTesting(true);
    setResult(null);
    try {
      // The test is a dictation's request: the cloud engine is chosen first, so what passed is what runs.
      if (await saver.save('asr.engine', 'remote')) setResult(await bridge.onboarding.verifySpeech());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setTesting(false);
    }
  };
  return (
    <>
      <h2 className="step-heading">{t('onboarding.cloud.heading')}</h2>
      <div className="group step-group">
        <SelectField
          id="onboarding-provider"
          label={t('onboarding.cloud.provider')}
          value={chosen}
          options={[...presets.map((p) => ({ value: p.kind, label: p.label })), { value: CUSTOM, label: t('onboarding.cloud.custom') }]}
          onChange={pick}
        />
        <TextField id="onboarding-url" label={t('onboarding.cloud.url')} maxLength={2048} value={url} error={saver.errors['asr.remote.base_url']} onCommit={(v) => saver.save('asr.remote.base_url', v)} />
        <TextField
          id="onboarding-model"
          label={t('onboarding.cloud.model')}
          maxLength={200}
          value={stringAt(config, 'asr.remote.model', '')}
          error={saver.errors['asr.remote.model']}
          onCommit={(v) => saver.save('asr.remote.model', v)}
        />
        <ApiKeyField bridge={bridge} provider="asr" secretName="asr:remote" label={t('onboarding.cloud.key')} />
        <div className="row">
          <span className="row-text">
            <span className="help">{t('onboarding.cloud.testHelp')}</span>
          </span>
          <button type="button" className="primary" disabled={testing} onClick={() => void test()}>
            {testing ? t('onboarding.cloud.testing') : t('onboarding.cloud.test')}
          </button>
        </div>
      </div>
      {result ? (
        <div className={`step-status ${result.ok ? 'status status-set' : 'field-error'}`} role={result.ok ? 'status' : 'alert'} data-testid="speech-check">
          <p>{checkText(t, result)}</p>
          {result.ok ? null : <p className="details">{t('onboarding.cloud.details', { message: result.message })}</p>}
        </div>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </>
  );
}
