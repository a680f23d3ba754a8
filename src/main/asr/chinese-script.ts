/**
 * Traditional ↔ Simplified Chinese for ASR output. Whisper often answers Mandarin in
 * Traditional characters; WenZi converts to Simplified before diffing and display. Without it every
 * character of a diff reads as a correction and the vocabulary learns noise. The text is converted once,
 * right after recognition, so the panel, the diff, the enhancer and the history record all see the same
 * script (`asr.chinese_script`).
 *
 * The converter is OpenCC's dictionaries (opencc-js, MIT + Apache-2.0): T→S is `tw → cn` (Taiwan
 * variants such as 著/裡 included, 109 kB), S→T is `cn → tw` (1.1 MB). Each is imported on the first
 * dictation that needs it, never on the app's start path. Latin text, digits and punctuation pass
 * through unchanged.
 */

/** The setting: `auto` picks from the recognition language (see {@link resolveChineseScript}). */
export type ChineseScriptSetting = 'auto' | 'simplified' | 'traditional' | 'as-recognized';
/** What is done to the text. */
export type ChineseScript = 'simplified' | 'traditional' | 'as-recognized';

/** Recognition languages whose writers use Traditional characters. */
const TRADITIONAL_LANGUAGES = /^(zh-(tw|hk|mo|hant)|yue)$/i;

/**
 * The script to write: the explicit setting, or for `auto` Traditional when the recognition language is
 * a Traditional one (zh-TW, zh-HK, zh-MO, zh-Hant, yue) and Simplified otherwise (WenZi's behaviour).
 * `asrLanguage` is the asr.language setting as written: 'follow-ui' (a Chinese UI, whose Chinese is
 * Simplified, means Chinese + English; an English UI English) and 'zh-en' (Mandarin with English) are
 * Simplified, as are 'auto' and every other code.
 */
export function resolveChineseScript(setting: ChineseScriptSetting, asrLanguage: string): ChineseScript {
  if (setting !== 'auto') return setting;
  return TRADITIONAL_LANGUAGES.test(asrLanguage.trim()) ? 'traditional' : 'simplified';
}

type Convert = (text: string) => string;
const loaded = new Map<'simplified' | 'traditional', Promise<Convert>>();

/** True when `text` holds a CJK ideograph (nothing to convert otherwise: no import, no work). */
function hasHan(text: string): boolean {
  return /\p{Script=Han}/u.test(text);
}

function converter(to: 'simplified' | 'traditional'): Promise<Convert> {
  let c = loaded.get(to);
  if (c === undefined) {
    c =
      to === 'simplified'
        ? import('opencc-js/t2cn').then((m) => m.Converter({ from: 'tw', to: 'cn' }))
        : import('opencc-js/cn2t').then((m) => m.Converter({ from: 'cn', to: 'tw' }));
    // A failed import is retried next time instead of being remembered.
    c.catch(() => loaded.delete(to));
    loaded.set(to, c);
  }
  return c;
}

/** Converts `text` to `script` (loading the converter on first use); `as-recognized` returns it as is. */
export async function toChineseScript(text: string, script: ChineseScript): Promise<string> {
  if (script === 'as-recognized' || !hasHan(text)) return text;
  const convert = await converter(script);
  return convert(text);
}

/** Whether a converter module has been imported (tests: nothing is loaded before the first dictation). */
export function chineseScriptLoaded(): boolean {
  return loaded.size > 0;
}
