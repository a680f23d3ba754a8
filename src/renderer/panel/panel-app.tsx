import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { boolAt, stringAt } from '../lib/config-view.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { PanelView } from './panel-view.tsx';

/** The preview panel window: the UI language from the config, then the live session view. */
export function PanelApp({ bridge }: { readonly bridge: TingxieBridge }) {
  const { config } = useConfig(bridge);
  const language = resolveLanguage(stringAt(config, 'ui.language', 'system'), navigator.language);
  return (
    <I18nProvider language={language}>
      {/* With AI off no mode ran: the panel says so instead of marking one (a config not read yet counts as on). */}
      <PanelView bridge={bridge} aiOn={config === null || boolAt(config, 'ai_enhance.enabled', false)} />
    </I18nProvider>
  );
}
