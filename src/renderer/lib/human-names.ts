/**
 * Names a person reads instead of internal ids: enhancement modes by their label (built-in modes in the
 * window's language unless the user renamed them), speech languages by name. Pure, unit-tested.
 */
import type { UiLanguage } from './i18n.ts';

/** The built-in modes' labels in both languages (builtin-modes.ts writes one of them into the mode file). */
const BUILTIN_MODE_LABELS: Readonly<Record<string, Readonly<Record<UiLanguage, string>>>> = {
  proofread: { en: 'Proofread', zh: '纠错润色' },
  translate_en: { en: 'Translate to English', zh: '翻译为英文' },
  proofread_translate_en: { en: 'Proofread, then translate', zh: '纠错后翻译' },
  commandline_master: { en: 'Command line master', zh: '命令行大师' },
  // Not a file: the mode a record is logged under when nothing enhanced it.
  off: { en: 'Not enhanced', zh: '未润色' },
};

/**
 * The label to show for mode `id`. A built-in mode whose file still carries a built-in label (in either
 * language, or none) is shown in the window's language; a label the user wrote is shown as written.
 */
export function modeLabel(id: string, label: string | undefined, lang: UiLanguage): string {
  const builtin = BUILTIN_MODE_LABELS[id];
  const own = (label ?? '').trim();
  if (builtin === undefined) return own || id;
  if (own === '' || own === id || own === builtin.en || own === builtin.zh) return builtin[lang];
  return own;
}

/** A function from mode id to label over a mode list (ids not in the list still get a readable name). */
export function modeLabeller(modes: readonly { readonly id: string; readonly label: string }[], lang: UiLanguage): (id: string) => string {
  const byId = new Map(modes.map((m) => [m.id, m.label]));
  return (id) => modeLabel(id, byId.get(id), lang);
}

/** Speech languages Tingxie names itself (whisper codes), so the list reads the same everywhere. */
const LANGUAGE_NAMES: Readonly<Record<string, Readonly<Record<UiLanguage, string>>>> = {
  // asr.language 'zh-en': Mandarin with English words mixed in (src/shared/recognition-language.ts).
  'zh-en': { en: 'Chinese + English', zh: '中英混合' },
  zh: { en: 'Chinese (Mandarin)', zh: '中文（普通话）' },
  en: { en: 'English', zh: '英语' },
  yue: { en: 'Cantonese', zh: '粤语' },
  ja: { en: 'Japanese', zh: '日语' },
  ko: { en: 'Korean', zh: '韩语' },
  fr: { en: 'French', zh: '法语' },
  de: { en: 'German', zh: '德语' },
  es: { en: 'Spanish', zh: '西班牙语' },
  ru: { en: 'Russian', zh: '俄语' },
  it: { en: 'Italian', zh: '意大利语' },
  pt: { en: 'Portuguese', zh: '葡萄牙语' },
};

/** A speech language code by name in `lang` (other codes through Intl.DisplayNames, else the code). */
export function languageName(code: string, lang: UiLanguage): string {
  const known = LANGUAGE_NAMES[code];
  if (known !== undefined) return known[lang];
  try {
    const name = new Intl.DisplayNames([lang === 'zh' ? 'zh-CN' : 'en'], { type: 'language', fallback: 'none' }).of(code);
    if (name !== undefined && name !== '') return name;
  } catch {
    // Not a valid language tag: show it as it is.
  }
  return code;
}

/** Speech models by name: one function, shared with main's notices (src/shared/speech-model-name.ts). */
export { speechModelName } from '../../shared/speech-model-name.ts';
