import { NumberField } from '../components/number-field.tsx';
import { SwitchField } from '../components/switch-field.tsx';
import { boolAt, numberAt } from '../lib/config-view.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { AudioRetention } from './audio-retention.tsx';
import { PrivacyActions } from './privacy-actions.tsx';
import type { TabProps } from './tab-props.ts';

/** History & privacy: whether history is kept, for how many days, and how long its recordings are kept. */
export function PrivacyTab({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  return (
    <>
      <h2>{t('settings.tab.privacy')}</h2>
      <div className="group">
        <SwitchField
          id="history-enabled"
          label={t('privacy.history')}
          help={t('privacy.history.help')}
          checked={boolAt(config, 'history.enabled', true)}
          error={saver.errors['history.enabled']}
          onChange={(v) => saver.save('history.enabled', v)}
        />
        <NumberField
          id="history-retention-days"
          label={t('privacy.retention')}
          help={t('privacy.retention.help')}
          min={0}
          value={numberAt(config, 'history.retention_days', 0)}
          notANumberMessage={t('error.notANumber')}
          error={saver.errors['history.retention_days']}
          onCommit={(v) => saver.save('history.retention_days', v, t('privacy.retention'))}
        />
        <AudioRetention config={config} saver={saver} bridge={bridge} />
      </div>
      <PrivacyActions bridge={bridge} />
    </>
  );
}
