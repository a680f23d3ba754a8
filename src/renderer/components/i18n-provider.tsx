import { useEffect, type ReactNode } from 'react';
import { htmlLang, type UiLanguage } from '../lib/i18n.ts';
import { I18nContext } from '../lib/i18n-context.ts';

/** Props of the language provider. */
export interface I18nProviderProps {
  readonly language: UiLanguage;
  readonly children: ReactNode;
}

/** Provides the UI language to a window and keeps `<html lang>` in step (fonts and screen readers use it). */
export function I18nProvider({ language, children }: I18nProviderProps) {
  useEffect(() => {
    document.documentElement.lang = htmlLang(language);
  }, [language]);
  return <I18nContext value={language}>{children}</I18nContext>;
}
