import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import { AUTO_LANGUAGE, MIXED_ZH_EN, resolveRecognitionLanguage } from '../../shared/recognition-language.ts';
import { buildInitialPrompt, type VocabularyPromptSettings } from './initial-prompt.ts';
import { findModel } from './model-catalog.ts';
import { senseVoiceLanguage } from './sherpa-families.ts';

/*
 * What each engine is given for the recognition language setting (config `asr.language`).
 * The setting defaults to 'follow-ui' (src/shared/recognition-language.ts: a Chinese UI means Chinese +
 * English, an English UI English) because whisper's language detection guesses wrong on short clips: a 2 s
 * Mandarin clip comes out as Japanese or English, or translated (larryxiao/openquack#17 describes the
 * same failure modes: "[SPEAKING CHINESE]" placeholders, silent translation, garbage). Pure functions.
 *
 * Chinese + English ('zh-en') per engine:
 * - whisper: language `zh` plus {@link MIXED_PROMPT_PREFIX} in the initial prompt. With `zh` alone whisper
 *   renders English speech as a Chinese translation (Const-me/Whisper#136); the initial prompt is read as the
 *   text that came before, so its style — script, punctuation, English words left in Latin letters — is
 *   what whisper continues (openai/whisper discussion #277, where a prompt steers Simplified vs Traditional;
 *   OpenAI's Whisper prompting guide: the model "follows the style of the prompt"). A short mixed-script
 *   sentence is the known way to keep English words in English without pinning any vocabulary
 *   (jongwony/cc-plugin#76 does the same for Korean + English; voquill/voquill#87 prepends
 *   "以下是普通话的句子。" for Simplified output).
 * - SenseVoice: `zh`. It takes one language or auto, never two (maintainer's answer in
 *   QwenAudio/SenseVoice#45), auto mistakes Mandarin for Cantonese or Japanese (QwenAudio/SenseVoice#129,
 *   #72), and the language input mainly sets the output's language tag, it does not stop the model from
 *   transcribing the English words (maintainer in QwenAudio/SenseVoice#252). `zh` is also what Chinese maps
 *   to, so switching between them does not rebuild the recognizer (sherpa-engine.ts reloads per language).
 * - Paraformer: no language input (the zh-en bilingual model handles both); the resolved setting is passed
 *   only so the result can name it.
 * - remote (OpenAI-compatible /audio/transcriptions): `language` is ISO-639-1, so `zh` plus the same prompt
 *   prefix (the `prompt` field is whisper's initial prompt); auto omits the field (remote-engine.ts).
 */

/** The engine kinds whose language input differs. */
export type RecognitionEngine = 'whisper' | 'sense-voice' | 'paraformer' | 'remote';

/**
 * The mixed Chinese/English sentence whisper's prompt starts with for 'zh-en': Simplified characters, full-width
 * punctuation and an English word in Latin letters, i.e. the transcript's style. Short (21 characters) so it
 * leaves the vocabulary most of the prompt budget.
 */
export const MIXED_PROMPT_PREFIX = '以下是中文和 English 混合的句子。';

/** What one engine is given. */
export interface EngineLanguage {
  /** 'auto' or the code the engine understands. */
  readonly language: string;
  /** Text the initial prompt starts with ('' for none; only whisper and remote read prompts). */
  readonly promptPrefix: string;
}

/** The engine a config runs: a sherpa-onnx family by the catalog, else whisper (an explicit model path is whisper). */
export function recognitionEngine(engine: 'local' | 'remote', model: string): RecognitionEngine {
  if (engine === 'remote') return 'remote';
  return findModel(model)?.sherpa?.family ?? 'whisper';
}

/**
 * Whether a whisper model has a Cantonese token. `yue` was added with large-v3 (vocabulary 51866); in an older
 * vocabulary the id after the last language is `<|translate|>`, so asking whisper.cpp for `yue` there would
 * translate. Those models get `zh` (the transcript is still converted to Traditional, chinese-script.ts).
 */
export function whisperKnowsCantonese(model: string): boolean {
  return /large-v3/i.test(model);
}

/** Base code of a language tag, lower-cased: zh-TW → zh, en-US → en. */
function baseCode(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0] ?? language;
}

/** What `engine` is given for the setting `setting` under UI language `ui` (`model`: the whisper model, for Cantonese). */
export function engineLanguage(setting: string, ui: UiLanguage, engine: RecognitionEngine, model = ''): EngineLanguage {
  const resolved = resolveRecognitionLanguage(setting, ui);
  const mixed = resolved === MIXED_ZH_EN;
  switch (engine) {
    case 'whisper': {
      if (mixed) return { language: 'zh', promptPrefix: MIXED_PROMPT_PREFIX };
      if (resolved === AUTO_LANGUAGE) return { language: AUTO_LANGUAGE, promptPrefix: '' };
      const code = baseCode(resolved);
      return { language: code === 'yue' && !whisperKnowsCantonese(model) ? 'zh' : code, promptPrefix: '' };
    }
    case 'sense-voice':
      return { language: mixed ? 'zh' : senseVoiceLanguage(resolved), promptPrefix: '' };
    case 'paraformer':
      return { language: resolved, promptPrefix: '' };
    case 'remote': {
      if (mixed) return { language: 'zh', promptPrefix: MIXED_PROMPT_PREFIX };
      if (resolved === AUTO_LANGUAGE) return { language: AUTO_LANGUAGE, promptPrefix: '' };
      // ISO-639-1 only: Cantonese (ISO-639-3 yue) is sent as zh.
      const code = baseCode(resolved);
      return { language: code === 'yue' ? 'zh' : code, promptPrefix: '' };
    }
    default: {
      const never: never = engine;
      throw new Error(`unknown engine ${String(never)}`);
    }
  }
}

/**
 * The initial prompt: the language prefix, then the vocabulary hotwords in what is left of the hotword
 * character cap (`max_hotword_chars`, which bounds the whole prompt). The prefix is sent even with the
 * vocabulary off: it is the language choice, not vocabulary. '' when there is nothing to send.
 */
export function promptWithPrefix(prefix: string, hotwords: readonly string[], settings: VocabularyPromptSettings): string {
  const room = prefix === '' ? settings.max_hotword_chars : settings.max_hotword_chars - [...prefix].length - 1;
  const words = settings.enabled && room > 0 ? buildInitialPrompt(hotwords, { maxHotwords: settings.max_dynamic_hotwords, maxChars: room }) : '';
  if (prefix === '') return words;
  return words === '' ? prefix : `${prefix} ${words}`;
}
