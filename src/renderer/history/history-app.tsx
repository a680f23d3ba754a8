import { useEffect } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { CenteredMessage } from '../components/centered-message.tsx';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { stringAt } from '../lib/config-view.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';

/** The history window. The History Browser itself is issue 7; until then it says so plainly. */
export function HistoryApp({ bridge }: { readonly bridge: TingxieBridge }) {
  const { config } = useConfig(bridge);
  const language = resolveLanguage(stringAt(config, 'ui.language', 'system'), navigator.language);
  return (
    <I18nProvider language={language}>
      <HistoryBody />
    </I18nProvider>
  );
}

function HistoryBody() {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('history.title');
  }, [t]);
  return (
    <CenteredMessage title={t('history.title')}>
      <p className="help">{t('history.pending')}</p>
    </CenteredMessage>
  );
}
