/**
 * The recognition language setting (config `asr.language`) before any engine sees it: which values mean
 * "follow the app language" and "Chinese + English", and what the first one stands for under each UI
 * language. Shared by main (engine mapping, src/main/asr/recognition-language.ts) and the Settings window
 * (the picker's live "now: …" label), so both read the same rule. Pure, environment-free.
 */
import type { UiLanguage } from './ipc/wire-types.ts';

/** `asr.language`: follow the app's UI language (`ui.language`, resolved) — the default. */
export const FOLLOW_UI_LANGUAGE = 'follow-ui';
/** `asr.language`: Mandarin with English words mixed in (code-switching), written as spoken. */
export const MIXED_ZH_EN = 'zh-en';
/** `asr.language`: let the engine detect the language per clip (unreliable on short clips). */
export const AUTO_LANGUAGE = 'auto';

/**
 * What "follow the app language" stands for. A Chinese UI means Chinese + English, not plain Chinese:
 * Tingxie's users mix English words into Chinese, and plain `zh` makes whisper translate them. An
 * English UI means English.
 */
export function followedRecognitionLanguage(ui: UiLanguage): string {
  return ui === 'zh' ? MIXED_ZH_EN : 'en';
}

/** The setting with "follow the app language" resolved: 'auto', 'zh-en' or a language code (zh, en, yue, zh-TW…). */
export function resolveRecognitionLanguage(setting: string, ui: UiLanguage): string {
  const s = setting.trim();
  return s === FOLLOW_UI_LANGUAGE || s === '' ? followedRecognitionLanguage(ui) : s;
}
