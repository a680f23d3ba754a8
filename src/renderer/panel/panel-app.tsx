import { useEffect, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { AppInfo } from '../../shared/ipc/wire-types.ts';
import { CenteredMessage } from '../components/centered-message.tsx';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { stringAt } from '../lib/config-view.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';

/**
 * The preview panel. Dictation sessions do not reach the renderer yet (issue 7 builds the real
 * panel), so it says exactly that, plus the app's version and platform from app:info.
 */
export function PanelApp({ bridge }: { readonly bridge: TingxieBridge }) {
  const { config } = useConfig(bridge);
  const language = resolveLanguage(stringAt(config, 'ui.language', 'system'), navigator.language);
  return (
    <I18nProvider language={language}>
      <PanelBody bridge={bridge} />
    </I18nProvider>
  );
}

function PanelBody({ bridge }: { readonly bridge: TingxieBridge }) {
  const { t } = useI18n();
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    document.title = t('panel.title');
  }, [t]);
  useEffect(() => {
    let live = true;
    bridge.app.info().then(
      (i) => live && setInfo(i),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge]);
  return (
    <CenteredMessage title={t('panel.idle')}>
      {info ? (
        <p className="help" data-testid="app-state">
          {t('panel.version', { version: info.version, platform: info.platform })}
        </p>
      ) : null}
    </CenteredMessage>
  );
}
