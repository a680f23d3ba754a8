import { useI18n } from '../lib/i18n-context.ts';

/** Where speech is recognised. */
export type SpeechPath = 'local' | 'cloud';

/** Step 1: this computer (a model download) or a cloud provider (a key). */
export function ChooseStep({ path, onChange }: { readonly path: SpeechPath; readonly onChange: (p: SpeechPath) => void }) {
  const { t } = useI18n();
  const option = (value: SpeechPath) => (
    <label className={`choice${path === value ? ' chosen' : ''}`}>
      <input type="radio" name="speech-path" value={value} checked={path === value} onChange={() => onChange(value)} />
      <span className="choice-text">
        <span className="row-label">{t(`onboarding.${value}.title`)}</span>
        <span className="help">{t(`onboarding.${value}.help`)}</span>
      </span>
    </label>
  );
  return (
    <>
      <p className="onboarding-intro">{t('onboarding.intro')}</p>
      <fieldset className="choices" role="radiogroup">
        <legend>{t('onboarding.choice')}</legend>
        {option('local')}
        {option('cloud')}
      </fieldset>
    </>
  );
}
