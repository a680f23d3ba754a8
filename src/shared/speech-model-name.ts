/** Speech model names as a person reads them, in the UI language (used by every window and by main's notices). */

const WHISPER_MODEL = /^(tiny|base|small|medium|large(?:-v\d)?(?:-turbo)?)(\.en)?(?:-(q\d_\d))?$/;

/** The sherpa-onnx catalog models (main/asr/model-catalog.ts), by the names their authors use. */
const SHERPA_MODEL_NAMES: Readonly<Record<string, { zh: string; en: string }>> = {
  'sense-voice-small-int8': { zh: 'SenseVoice-Small（int8）', en: 'SenseVoice-Small (int8)' },
  'paraformer-zh-int8': { zh: 'Paraformer 中英（int8）', en: 'Paraformer Chinese-English (int8)' },
  'paraformer-zh-small-int8': { zh: 'Paraformer 中文小模型（int8）', en: 'Paraformer Chinese small (int8)' },
};

/**
 * A speech model by name: whisper.cpp's `small-q5_1` (or `whisper-small-q5_1` as records store it) reads
 * "Whisper Small (q5_1)", `base.en` "Whisper Base (English only)". Other names (a cloud model such as
 * `whisper-1`, another engine's model) are shown as they are: they are the provider's own names.
 */
export function speechModelName(name: string, lang: 'zh' | 'en'): string {
  const sherpa = SHERPA_MODEL_NAMES[name];
  if (sherpa !== undefined) return sherpa[lang];
  const m = WHISPER_MODEL.exec(name.replace(/^whisper-(?=[a-z])/, ''));
  if (m === null) return name;
  const family = (m[1] ?? '')
    .split('-')
    .map((w) => (/^v\d$/.test(w) ? w : `${w.charAt(0).toUpperCase()}${w.slice(1)}`))
    .join(' ');
  const notes = [m[2] !== undefined ? (lang === 'zh' ? '仅英语' : 'English only') : null, m[3] ?? null].filter((x): x is string => x !== null);
  if (notes.length === 0) return `Whisper ${family}`;
  return lang === 'zh' ? `Whisper ${family}（${notes.join('，')}）` : `Whisper ${family} (${notes.join(', ')})`;
}
