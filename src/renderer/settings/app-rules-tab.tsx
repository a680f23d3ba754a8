import { useEffect, useState } from 'react';
import type { SubmitKeySetting } from '../../shared/config/app-rules.ts';
import type { RecentApp } from '../../shared/ipc/app-rules-contract.ts';
import { SelectField } from '../components/select-field.tsx';
import { useModeList } from '../hooks/use-mode-list.ts';
import { choiceAt, stringAt, valueAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { AppRulesEditor } from './app-rules-editor.tsx';
import { modKeyName, rulesFrom } from './app-rules-output.ts';
import { ShortcutField } from './shortcut-field.tsx';
import type { TabProps } from './tab-props.ts';

/** output.submit_key's choices (shared/config/app-rules.ts SUBMIT_KEYS; that module carries zod, which this page's CSP keeps out). */
const SUBMIT_KEYS: readonly SubmitKeySetting[] = ['none', 'enter', 'shift+enter', 'mod+enter'];

const LAST_KEYS = [
  ['paste', 'recording.paste_last_shortcut', 'apps.last.paste.help'],
  ['copy', 'recording.copy_last_shortcut', null],
  ['reopen', 'recording.reopen_last_shortcut', 'apps.last.reopen.help'],
] as const;

/** The platform and the recent apps, read once (either may fail: the tab works without them). */
function useTabData(bridge: TabProps['bridge']): { readonly platform: string; readonly recent: readonly RecentApp[] } {
  const [platform, setPlatform] = useState('linux');
  const [recent, setRecent] = useState<readonly RecentApp[]>([]);
  useEffect(() => {
    let live = true;
    bridge.app.info().then((i) => live && setPlatform(i.platform), () => undefined);
    bridge.apps.recent().then((r) => live && setRecent(r), () => undefined);
    return () => {
      live = false;
    };
  }, [bridge]);
  return { platform, recent };
}

/**
 * Apps: the rules that pick the mode and the output from the app dictated into, the key pressed after
 * every paste (output.submit_key), and the last-dictation shortcuts.
 */
export function AppRulesTab({ config, saver, bridge }: TabProps) {
  const { t, lang } = useI18n();
  const { platform, recent } = useTabData(bridge);
  const { modes } = useModeList(bridge);
  const mod = modKeyName(platform);
  const usable = modes.filter((m) => m.problem === null).map((m) => ({ id: m.id, label: m.label }));
  return (
    <>
      <h2>{t('settings.tab.apps')}</h2>
      <h3>{t('apps.rules')}</h3>
      <p className="help">{t('apps.rules.help')}</p>
      <AppRulesEditor
        rules={rulesFrom(valueAt(config, 'app_rules'))}
        modes={usable}
        recent={recent}
        mod={mod}
        error={saver.errors.app_rules}
        save={(rules) => saver.save('app_rules', rules.map((r) => ({ ...r })), t('apps.rules'))}
      />
      <div className="group">
        <SelectField
          id="output-submit-key"
          label={t('apps.submit')}
          help={t('apps.submit.help')}
          value={choiceAt(config, 'output.submit_key', SUBMIT_KEYS, 'none')}
          options={SUBMIT_KEYS.map((k) => ({ value: k, label: t(`apps.submit.${k}`, { mod }) }))}
          error={saver.errors['output.submit_key']}
          onChange={(v) => saver.save('output.submit_key', v)}
        />
      </div>
      <h3>{t('apps.last')}</h3>
      <p className="help">{t('apps.last.help')}</p>
      <div className="group" lang={lang === 'zh' ? 'zh-CN' : 'en'}>
        {LAST_KEYS.map(([what, keyPath, help]) => (
          <ShortcutField
            key={what}
            id={`last-${what}-shortcut`}
            label={t(`apps.last.${what}`)}
            {...(help !== null ? { help: t(help) } : {})}
            platform={platform}
            allowNone
            value={stringAt(config, keyPath, '')}
            error={saver.errors[keyPath]}
            onCommit={(a) => saver.save(keyPath, a)}
          />
        ))}
      </div>
    </>
  );
}
