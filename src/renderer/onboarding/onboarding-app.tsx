import { useCallback, useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { useConfigSaver } from '../hooks/use-config-saver.ts';
import { stringAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { SpeechPath } from './choose-step.tsx';
import { SETUP_STEPS } from './steps.tsx';

/** The first-run window: where speech is recognised, set it up, the microphone, permissions, the hotkey, one dictation. */
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
  const [index, setIndex] = useState(0);
  const [path, setPath] = useState<SpeechPath>(stringAt(config, 'asr.engine', 'local') === 'remote' ? 'cloud' : 'local');
  const [platform, setPlatform] = useState('linux');
  // Whether the current gated step may be left: the engine works, a usable key is chosen.
  const [ready, setReady] = useState(false);
  const onReady = useCallback((r: boolean) => setReady(r), []);
  const [closeError, setCloseError] = useState<string | null>(null);
  useEffect(() => {
    document.title = t('onboarding.title');
  }, [t]);
  useEffect(() => {
    bridge.app.info().then((i) => setPlatform(i.platform), () => undefined);
  }, [bridge]);
  const step = SETUP_STEPS[index] ?? SETUP_STEPS[0];
  const last = index === SETUP_STEPS.length - 1;
  const go = (to: number): void => {
    setReady(false);
    setIndex(to);
  };
  const close = (): void => {
    bridge.onboarding.close().catch((e: unknown) => setCloseError(errorText(e)));
  };
  return (
    <main className="onboarding" data-step={step?.id}>
      <header className="onboarding-header">
        <h1>{t('onboarding.title')}</h1>
        <span className="help">{t('onboarding.step', { n: index + 1, total: SETUP_STEPS.length })}</span>
      </header>
      <div className="onboarding-body">
        {step?.render({ bridge, config, saver, platform, path, setPath, onReady })}
        {closeError ? <p className="field-error">{closeError}</p> : null}
      </div>
      <footer className="onboarding-footer">
        <button type="button" className="text-button" onClick={close}>
          {t('onboarding.later')}
        </button>
        <span className="grow" />
        {index > 0 ? (
          <button type="button" onClick={() => go(index - 1)}>
            {t('onboarding.back')}
          </button>
        ) : null}
        <button type="button" className="primary" disabled={step?.gated === true && !ready} onClick={() => (last ? close() : go(index + 1))}>
          {last ? t('onboarding.finish') : t('onboarding.next')}
        </button>
      </footer>
    </main>
  );
}
