import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles/app.css';
import '../styles/models.css';
import { CenteredMessage } from '../components/centered-message.tsx';
import { getBridge, hasBridge } from '../lib/bridge.ts';
import { translate, resolveLanguage } from '../lib/i18n.ts';
import { SettingsApp } from './settings-app.tsx';

const root = createRoot(document.getElementById('root') as HTMLElement);
root.render(
  <StrictMode>
    {hasBridge() ? (
      <SettingsApp bridge={getBridge()} />
    ) : (
      <CenteredMessage title={translate(resolveLanguage('system', navigator.language), 'common.bridgeMissing')} />
    )}
  </StrictMode>,
);
