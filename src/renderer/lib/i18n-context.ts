import { createContext, useCallback, useContext } from 'react';
import { translate, type MessageKey, type UiLanguage } from './i18n.ts';

/** The UI language of the current window (set by `I18nProvider`). */
export const I18nContext = createContext<UiLanguage>('en');

/** A translate function bound to the window's language. */
export type Translate = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string;

/** The window's language and a `t(key, vars)` bound to it. */
export function useI18n(): { readonly lang: UiLanguage; readonly t: Translate } {
  const lang = useContext(I18nContext);
  const t = useCallback<Translate>((key, vars) => translate(lang, key, vars), [lang]);
  return { lang, t };
}
