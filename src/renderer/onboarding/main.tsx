import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles/app.css';
import '../styles/models.css';
import '../styles/onboarding.css';
import { CenteredMessage } from '../components/centered-message.tsx';
import { getBridge, hasBridge } from '../lib/bridge.ts';
import { translate, resolveLanguage } from '../lib/i18n.ts';
import { OnboardingApp } from './onboarding-app.tsx';

const root = createRoot(document.getElementById('root') as HTMLElement);
root.render(
  <StrictMode>
    {hasBridge() ? (
      <OnboardingApp bridge={getBridge()} />
    ) : (
      <CenteredMessage title={translate(resolveLanguage('system', navigator.language), 'common.bridgeMissing')} />
    )}
  </StrictMode>,
);
