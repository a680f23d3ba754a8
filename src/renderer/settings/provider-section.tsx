import { useState } from 'react';
import type { ProviderCheckResult } from '../../shared/ipc/settings-types.ts';
import { TextField } from '../components/text-field.tsx';
import { stringAt } from '../lib/config-view.ts';
import { errorText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n-context.ts';
import type { TabProps } from './tab-props.ts';

/** The default provider's base URL and model, with a Verify button (main calls the provider; the key never leaves main). */
export function ProviderSection({ config, saver, bridge }: TabProps) {
  const { t } = useI18n();
  const provider = stringAt(config, 'ai_enhance.default_provider', 'ollama');
  const [check, setCheck] = useState<ProviderCheckResult | 'running' | null>(null);
  const verify = () => {
    setCheck('running');
    bridge.providers.verify({ providerId: provider }).then(setCheck, (e: unknown) => setCheck({ ok: false, models: [], message: errorText(e) }));
  };
  return (
    <>
      <TextField
        id="provider-url"
        label={t('ai.provider.url', { provider })}
        maxLength={2048}
        value={stringAt(config, `ai_enhance.providers.${provider}.base_url`, '')}
        error={saver.errors[`ai_enhance.providers.${provider}.base_url`]}
        onCommit={(v) => saver.save(`ai_enhance.providers.${provider}.base_url`, v)}
      />
      <TextField
        id="provider-model"
        label={t('ai.provider.model')}
        maxLength={200}
        value={stringAt(config, 'ai_enhance.default_model', '')}
        error={saver.errors['ai_enhance.default_model']}
        onCommit={(v) => saver.save('ai_enhance.default_model', v)}
      />
      <div className="row">
        <span className="row-text">
          <span className={check && check !== 'running' ? (check.ok ? 'status status-set' : 'field-error') : 'status'} role="status" data-testid="verify-result">
            {check === 'running' ? t('ai.verify.running') : check ? t(check.ok ? 'ai.verify.ok' : 'ai.verify.fail', { message: check.message }) : ''}
          </span>
        </span>
        <button type="button" onClick={verify} disabled={check === 'running'}>
          {t('ai.verify')}
        </button>
      </div>
    </>
  );
}
