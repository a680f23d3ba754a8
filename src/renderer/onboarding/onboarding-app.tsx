import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { useConfigSaver } from '../hooks/use-config-saver.ts';
import { stringAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { ChooseStep, type SpeechPath } from './choose-step.tsx';
import { CloudStep } from './cloud-step.tsx';
import { LocalStep } from './local-step.tsx';
import { TryStep } from './try-step.tsx';

type Step = 'choose' | 'setup' | 'try';
const STEPS: readonly Step[] = ['choose', 'setup', 'try'];

/** The first-run window: where speech is recognised (this computer or a cloud service), set it up, try one dictation. */
export function OnboardingApp({ bridge }: { readonly bridge: TingxieBridge }) {
  const { config, error, update } = useConfig(bridge);
  const language = resolveLanguage(stringAt(config, 'ui.language', 'system'), navigator.language);
  return (
    <I18nProvider language={language}>
      {config === null ? <p className="onboarding-loading help">{error ?? ''}</p> : <OnboardingBody bridge={bridge} config={config} onSaved={update} />}
    </I18nProvider>
  );
}

interface BodyProps {
  readonly bridge: TingxieBridge;
  readonly config: ConfigSnapshot;
  readonly onSaved: (config: ConfigSnapshot) => void;
}

function OnboardingBody({ bridge, config, onSaved }: BodyProps) {
  const { t } = useI18n();
  const saver = useConfigSaver(bridge, onSaved);
  const [step, setStep] = useState<Step>('choose');
  const [path, setPath] = useState<SpeechPath>(stringAt(config, 'asr.engine', 'local') === 'remote' ? 'cloud' : 'local');
  // Whether the chosen engine works: the model is installed, or the cloud test passed.
  const [ready, setReady] = useState(false);
  const [closeError, setCloseError] = useState<string | null>(null);
  useEffect(() => {
    document.title = t('onboarding.title');
  }, [t]);
  const index = STEPS.indexOf(step);
  const close = (): void => {
    bridge.onboarding.close().catch((e: unknown) => setCloseError(errorText(e)));
  };
  const next = (): void => {
    if (step === 'try') close();
    else setStep(STEPS[index + 1] ?? 'try');
  };
  return (
    <main className="onboarding">
      <header className="onboarding-header">
        <h1>{t('onboarding.title')}</h1>
        <span className="help">{t('onboarding.step', { n: index + 1, total: STEPS.length })}</span>
      </header>
      <div className="onboarding-body">
        {step === 'choose' ? <ChooseStep path={path} onChange={setPath} /> : null}
        {step === 'setup' && path === 'local' ? <LocalStep bridge={bridge} config={config} saver={saver} onReady={setReady} /> : null}
        {step === 'setup' && path === 'cloud' ? <CloudStep bridge={bridge} config={config} saver={saver} onReady={setReady} /> : null}
        {step === 'try' ? <TryStep bridge={bridge} config={config} /> : null}
        {closeError ? <p className="field-error">{closeError}</p> : null}
      </div>
      <footer className="onboarding-footer">
        <button type="button" className="text-button" onClick={close}>
          {t('onboarding.later')}
        </button>
        <span className="grow" />
        {index > 0 ? (
          <button type="button" onClick={() => setStep(STEPS[index - 1] ?? 'choose')}>
            {t('onboarding.back')}
          </button>
        ) : null}
        <button type="button" className="primary" disabled={step === 'setup' && !ready} onClick={next}>
          {step === 'try' ? t('onboarding.finish') : t('onboarding.next')}
        </button>
      </footer>
    </main>
  );
}
