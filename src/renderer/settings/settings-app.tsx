import { useEffect, useRef, useState } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigIssuesInfo } from '../../shared/ipc/wire-types.ts';
import { Banner } from '../components/banner.tsx';
import { I18nProvider } from '../components/i18n-provider.tsx';
import { TabList, tabPanelProps } from '../components/tabs.tsx';
import { useConfig } from '../hooks/use-config.ts';
import { useConfigSaver } from '../hooks/use-config-saver.ts';
import { stringAt } from '../lib/config-view.ts';
import { resolveLanguage } from '../lib/i18n.ts';
import { useI18n } from '../lib/i18n-context.ts';
import { AiTab } from './ai-tab.tsx';
import { AppRulesTab } from './app-rules-tab.tsx';
import { AudioTab } from './audio-tab.tsx';
import { SpeechTab } from './speech-tab.tsx';
import { VocabularyTab } from './vocabulary-tab.tsx';
import { GeneralTab } from './general-tab.tsx';
import { PrivacyTab } from './privacy-tab.tsx';
import { RulesTab } from './rules-tab.tsx';
import type { TabProps } from './tab-props.ts';

type TabId = 'general' | 'audio' | 'speech' | 'ai' | 'apps' | 'vocabulary' | 'rules' | 'privacy';
const tabIds: readonly TabId[] = ['general', 'audio', 'speech', 'ai', 'apps', 'vocabulary', 'rules', 'privacy'];

/** The settings window: language from config, sidebar of sections, load-issue banner. */
export function SettingsApp({ bridge }: { readonly bridge: TingxieBridge }) {
  const { config, error, update } = useConfig(bridge);
  const language = resolveLanguage(stringAt(config, 'ui.language', 'system'), navigator.language);
  return (
    <I18nProvider language={language}>
      <SettingsBody bridge={bridge} config={config} loadError={error} onSaved={update} />
    </I18nProvider>
  );
}

interface BodyProps {
  readonly bridge: TingxieBridge;
  readonly config: TabProps['config'] | null;
  readonly loadError: string | null;
  readonly onSaved: (config: TabProps['config']) => void;
}

function SettingsBody({ bridge, config, loadError, onSaved }: BodyProps) {
  const { t } = useI18n();
  const [tab, setTab] = useState<TabId>('general');
  const [issues, setIssues] = useState<ConfigIssuesInfo | null>(null);
  const saver = useConfigSaver(bridge, onSaved);
  const picked = useRef(false);
  const pick = (id: TabId): void => {
    picked.current = true;
    setTab(id);
  };
  useSpeechFirst(bridge, config, () => {
    if (!picked.current) setTab('speech');
  });

  useEffect(() => {
    document.title = t('settings.title');
  }, [t]);
  useEffect(() => {
    let alive = true;
    // Issues are shown if they can be read; failing to read them must not block the settings.
    bridge.config.issues().then(
      (i) => alive && setIssues(i),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [bridge]);

  const tabs = tabIds.map((id) => ({ id, label: t(`settings.tab.${id}`) }));
  return (
    <div className="settings">
      <nav className="sidebar">
        <h1>{t('settings.title')}</h1>
        <TabList label={t('settings.tabs')} tabs={tabs} selected={tab} onSelect={pick} />
      </nav>
      <div className="content">
        {issues && issues.loadIssues.length > 0 ? <IssuesBanner issues={issues} /> : null}
        {loadError ? (
          <Banner tone="error" testId="load-error">
            {t('common.loadFailed', { message: loadError })}
          </Banner>
        ) : null}
        {config ? (
          <section {...tabPanelProps(tab)}>
            <TabContent tab={tab} props={{ config, saver, bridge }} />
          </section>
        ) : loadError ? null : (
          <p className="help">{t('common.loading')}</p>
        )}
      </div>
    </div>
  );
}

/**
 * Calls `open` once when the chosen local speech model is not installed (a first start, or a model that
 * was deleted): Settings then opens on Speech, where it is downloaded, instead of on General.
 */
function useSpeechFirst(bridge: TingxieBridge, config: TabProps['config'] | null, open: () => void): void {
  const loaded = config !== null;
  const engine = config === null ? 'local' : stringAt(config, 'asr.engine', 'local');
  const model = config === null ? '' : stringAt(config, 'asr.local.model', 'base');
  const checked = useRef(false);
  useEffect(() => {
    if (!loaded || checked.current) return;
    checked.current = true;
    if (engine !== 'local') return;
    bridge.models.list().then(
      (models) => {
        if (!models.some((m) => m.name === model && m.installed)) open();
      },
      () => undefined,
    );
  }, [bridge, loaded, engine, model, open]);
}

function TabContent({ tab, props }: { readonly tab: TabId; readonly props: TabProps }) {
  switch (tab) {
    case 'general':
      return <GeneralTab {...props} />;
    case 'audio':
      return <AudioTab {...props} />;
    case 'speech':
      return <SpeechTab {...props} />;
    case 'ai':
      return <AiTab {...props} />;
    case 'vocabulary':
      return <VocabularyTab {...props} />;
    case 'rules':
      return <RulesTab {...props} />;
    case 'apps':
      return <AppRulesTab {...props} />;
    case 'privacy':
      return <PrivacyTab {...props} />;
    default: {
      const unreachable: never = tab;
      return unreachable;
    }
  }
}

function IssuesBanner({ issues }: { readonly issues: ConfigIssuesInfo }) {
  const { t } = useI18n();
  return (
    <Banner tone="warning" testId="config-issues">
      <p>{t('settings.issues.title')}</p>
      <ul>
        {issues.loadIssues.map((i) => (
          <li key={i.path}>
            <code>{i.path}</code>: {i.message}
          </li>
        ))}
      </ul>
      {issues.backupPath ? <p>{t('settings.issues.backup', { path: issues.backupPath })}</p> : null}
    </Banner>
  );
}
