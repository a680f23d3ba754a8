import { useEffect, useState } from 'react';
import type { AppInfo } from '../../shared/ipc/wire-types.ts';
import { SelectField } from '../components/select-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { boolAt, choiceAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { RecordingSection } from './recording-section.tsx';
import type { TabProps } from './tab-props.ts';

const languages = ['system', 'zh', 'en'] as const;
const methods = ['paste', 'copy'] as const;

/** General: UI language, preview, output method, launch at login, and the app version. */
export function GeneralTab(props: TabProps) {
  const { config, saver, bridge } = props;
  const { t } = useI18n();
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    let live = true;
    // The version line is informative only: if app:info fails the tab still works, so it is just omitted.
    bridge.app.info().then(
      (i) => live && setInfo(i),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge]);

  return (
    <>
      <h2>{t('settings.tab.general')}</h2>
      <div className="group">
        <SelectField
          id="ui-language"
          label={t('general.language')}
          value={choiceAt(config, 'ui.language', languages, 'system')}
          options={languages.map((l) => ({ value: l, label: t(`general.language.${l}`) }))}
          error={saver.errors['ui.language']}
          onChange={(v) => saver.save('ui.language', v)}
        />
        <SwitchField
          id="output-preview"
          label={t('general.preview')}
          help={t('general.preview.help')}
          checked={boolAt(config, 'output.preview', true)}
          error={saver.errors['output.preview']}
          onChange={(v) => saver.save('output.preview', v)}
        />
        <SelectField
          id="output-method"
          label={t('general.method')}
          value={choiceAt(config, 'output.method', methods, 'paste')}
          options={methods.map((m) => ({ value: m, label: t(`general.method.${m}`) }))}
          error={saver.errors['output.method']}
          onChange={(v) => saver.save('output.method', v)}
        />
        <SwitchField
          id="launch-at-login"
          label={t('general.launchAtLogin')}
          checked={boolAt(config, 'app.launch_at_login', false)}
          error={saver.errors['app.launch_at_login']}
          onChange={(v) => saver.save('app.launch_at_login', v)}
        />
      </div>
      <RecordingSection {...props} platform={info?.platform ?? 'linux'} />
      {info ? (
        <p className="help about" data-testid="about">
          {t('general.about', { name: t('app.name'), version: info.version })}
        </p>
      ) : null}
    </>
  );
}
