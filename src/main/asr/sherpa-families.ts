import { PARAFORMER_SPEC, SENSE_VOICE_SPEC, type SherpaModelSpec } from './sherpa-model-check.ts';

/*
 * What differs between the sherpa-onnx offline model families the engine runs: the model check, the
 * recognizer config (sherpa-onnx-node's OfflineModelConfig, types.js), which requested languages need a
 * different recognizer, and how the raw result maps to text and a language.
 */

export type SherpaFamily = 'sense-voice' | 'paraformer';

/** Languages SenseVoice-Small knows (lang_* metadata in offline-sense-voice-model.cc); others run as auto. */
export const SENSE_VOICE_LANGUAGES = ['auto', 'zh', 'en', 'ja', 'ko', 'yue'] as const;
export type SenseVoiceLanguage = (typeof SENSE_VOICE_LANGUAGES)[number];

/** The JSON sherpa-onnx-node returns for a decoded stream (the fields used here). */
export interface SherpaRawResult {
  readonly text: string;
  readonly lang?: string;
  readonly timestamps?: readonly number[];
}

export interface SherpaFamilyDef {
  readonly spec: SherpaModelSpec;
  /**
   * The recognizer variant a requested language needs: calls with the same key share one loaded
   * recognizer, a new key reloads it (the language is part of the recognizer config, not of a stream).
   */
  recognizerKey(requested: string | undefined): string;
  /** modelConfig fields for this family (besides tokens, threads, provider). */
  modelConfig(model: string, key: string, itn: boolean): Record<string, unknown>;
  /** Clean text of a raw result. */
  text(raw: SherpaRawResult): string;
  /** The language used or detected, undefined when unknown. */
  language(raw: SherpaRawResult, requested: string | undefined): string | undefined;
}

/** Maps a requested language ('auto', 'zh', 'zh-CN', 'en-US', 'zh-en'…) to one SenseVoice understands. */
export function senseVoiceLanguage(requested: string | undefined): SenseVoiceLanguage {
  // Chinese + English: zh, not auto (auto takes Mandarin for Cantonese or Japanese; zh still transcribes the
  // English words). Sources in recognition-language.ts.
  if (requested !== undefined && /^zh[-_]en$/i.test(requested)) return 'zh';
  const base = (requested ?? 'auto').toLowerCase().split(/[-_]/)[0] ?? 'auto';
  return (SENSE_VOICE_LANGUAGES as readonly string[]).includes(base) ? (base as SenseVoiceLanguage) : 'auto';
}

/** "<|en|>" → "en"; "<|nospeech|>" and unknown tags → undefined. */
export function languageFromTag(tag: string | undefined): string | undefined {
  const m = /^<\|([a-z]+)\|>$/.exec(tag ?? '');
  const lang = m?.[1];
  return lang !== undefined && lang !== 'nospeech' && lang !== 'auto' ? lang : undefined;
}

/** Removes special tokens the model may leave in the text and collapses whitespace. */
export function cleanSenseVoiceText(text: string): string {
  return text.replace(/<\|[^|>]*\|>/g, '').replace(/\s+/g, ' ').trim();
}

/** The requested language's base code, or undefined for auto / mixed (the caller asked nothing precise). */
function requestedBase(requested: string | undefined): string | undefined {
  if (requested === undefined || requested === 'auto' || /^zh[-_]en$/i.test(requested)) return undefined;
  return requested.toLowerCase().split(/[-_]/)[0];
}

export const SHERPA_FAMILIES: Readonly<Record<SherpaFamily, SherpaFamilyDef>> = {
  'sense-voice': {
    spec: SENSE_VOICE_SPEC,
    recognizerKey: senseVoiceLanguage,
    // OfflineSenseVoiceModelConfig: language '' and 'auto' both mean lang_auto (offline-recognizer-sense-voice-impl.h).
    modelConfig: (model, key, itn) => ({ senseVoice: { model, language: key, useInverseTextNormalization: itn ? 1 : 0 } }),
    text: (raw) => cleanSenseVoiceText(raw.text),
    // The model's own language token, else what was asked for.
    language: (raw, requested) => {
      const key = senseVoiceLanguage(requested);
      return languageFromTag(raw.lang) ?? (key === 'auto' ? undefined : key);
    },
  },
  paraformer: {
    spec: PARAFORMER_SPEC,
    // Paraformer has no language input: one recognizer serves every request.
    recognizerKey: () => '',
    modelConfig: (model) => ({ paraformer: { model } }),
    // Convert() in offline-recognizer-paraformer-impl.h puts a space before every ascii token.
    text: (raw) => raw.text.replace(/\s+/g, ' ').trim(),
    language: (_raw, requested) => requestedBase(requested),
  },
};
