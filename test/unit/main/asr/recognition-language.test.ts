import { describe, expect, it } from 'vitest';
import {
  MIXED_PROMPT_PREFIX,
  engineLanguage,
  promptWithPrefix,
  recognitionEngine,
  whisperKnowsCantonese,
  type RecognitionEngine,
} from '../../../../src/main/asr/recognition-language.ts';
import { senseVoiceLanguage } from '../../../../src/main/asr/sherpa-families.ts';
import { followedRecognitionLanguage, resolveRecognitionLanguage } from '../../../../src/shared/recognition-language.ts';

/** The recognition language follows the app language, and each engine gets what it understands. */

const vocab = { enabled: true, max_dynamic_hotwords: 10, max_hotword_chars: 200 };

describe('the setting before any engine', () => {
  it('follow-ui: a Chinese UI means Chinese + English, an English UI English; other values stay', () => {
    expect(followedRecognitionLanguage('zh')).toBe('zh-en');
    expect(followedRecognitionLanguage('en')).toBe('en');
    expect(resolveRecognitionLanguage('follow-ui', 'zh')).toBe('zh-en');
    expect(resolveRecognitionLanguage('follow-ui', 'en')).toBe('en');
    for (const s of ['auto', 'zh', 'zh-en', 'yue', 'zh-TW']) expect(resolveRecognitionLanguage(s, 'en')).toBe(s);
  });

  it('the engine kind comes from the catalog: sherpa families by name, any other local model (or a path) is whisper', () => {
    expect(recognitionEngine('remote', 'sense-voice-small-int8')).toBe('remote');
    expect(recognitionEngine('local', 'sense-voice-small-int8')).toBe('sense-voice');
    expect(recognitionEngine('local', 'paraformer-zh-int8')).toBe('paraformer');
    expect(recognitionEngine('local', 'base')).toBe('whisper');
    expect(recognitionEngine('local', '/models/ggml-large-v3.bin')).toBe('whisper');
  });
});

describe('per engine', () => {
  const table = (setting: string, ui: 'zh' | 'en', model = 'base') =>
    Object.fromEntries((['whisper', 'sense-voice', 'paraformer', 'remote'] as RecognitionEngine[]).map((e) => [e, engineLanguage(setting, ui, e, model)]));

  it('Chinese + English: whisper and remote get zh plus the mixed prompt prefix, SenseVoice zh, Paraformer nothing to choose', () => {
    const mixed = { whisper: { language: 'zh', promptPrefix: MIXED_PROMPT_PREFIX }, 'sense-voice': { language: 'zh', promptPrefix: '' }, paraformer: { language: 'zh-en', promptPrefix: '' }, remote: { language: 'zh', promptPrefix: MIXED_PROMPT_PREFIX } };
    expect(table('zh-en', 'en')).toEqual(mixed);
    // The default under a Chinese UI is exactly the mixed setting.
    expect(table('follow-ui', 'zh')).toEqual(mixed);
  });

  it('follow-ui under an English UI is English everywhere, without a prompt prefix', () => {
    expect(table('follow-ui', 'en')).toEqual({ whisper: { language: 'en', promptPrefix: '' }, 'sense-voice': { language: 'en', promptPrefix: '' }, paraformer: { language: 'en', promptPrefix: '' }, remote: { language: 'en', promptPrefix: '' } });
  });

  it('auto stays auto (remote-engine.ts then omits the field)', () => {
    for (const e of Object.values(table('auto', 'zh'))) expect(e).toEqual({ language: 'auto', promptPrefix: '' });
  });

  it('single languages: base codes for whisper and remote, SenseVoice its own five or auto', () => {
    expect(table('zh-TW', 'en')).toMatchObject({ whisper: { language: 'zh' }, 'sense-voice': { language: 'zh' }, remote: { language: 'zh' }, paraformer: { language: 'zh-TW' } });
    expect(table('ja', 'zh')).toMatchObject({ whisper: { language: 'ja' }, 'sense-voice': { language: 'ja' }, remote: { language: 'ja' } });
    expect(table('de', 'zh')).toMatchObject({ whisper: { language: 'de' }, 'sense-voice': { language: 'auto' }, remote: { language: 'de' } });
  });

  it('Cantonese: whisper only with a large-v3 vocabulary (older ones would translate), remote as zh (ISO-639-1), SenseVoice yue', () => {
    expect(whisperKnowsCantonese('large-v3-turbo-q5_0')).toBe(true);
    expect(whisperKnowsCantonese('base')).toBe(false);
    expect(engineLanguage('yue', 'zh', 'whisper', 'large-v3')).toEqual({ language: 'yue', promptPrefix: '' });
    expect(engineLanguage('yue', 'zh', 'whisper', 'small')).toEqual({ language: 'zh', promptPrefix: '' });
    expect(engineLanguage('yue', 'zh', 'remote')).toEqual({ language: 'zh', promptPrefix: '' });
    expect(engineLanguage('yue', 'zh', 'sense-voice')).toEqual({ language: 'yue', promptPrefix: '' });
  });

  it('SenseVoice is stable: Chinese, Chinese + English and follow-ui under a Chinese UI share one recognizer', () => {
    const keys = ['zh', 'zh-en', 'follow-ui'].map((s) => senseVoiceLanguage(engineLanguage(s, 'zh', 'sense-voice').language));
    expect(new Set(keys)).toEqual(new Set(['zh']));
    // The same value twice gives the same answer (the recognizer is rebuilt only when it changes).
    expect(engineLanguage('follow-ui', 'en', 'sense-voice')).toEqual(engineLanguage('follow-ui', 'en', 'sense-voice'));
  });
});

describe('promptWithPrefix', () => {
  it('no prefix: the vocabulary prompt as before', () => {
    expect(promptWithPrefix('', ['Tingxie', 'WenZi'], vocab)).toBe('Tingxie, WenZi');
    expect(promptWithPrefix('', ['Tingxie'], { ...vocab, enabled: false })).toBe('');
  });

  it('the prefix first, then the hotwords; the whole prompt stays within max_hotword_chars', () => {
    expect(promptWithPrefix(MIXED_PROMPT_PREFIX, ['Tingxie', 'WenZi'], vocab)).toBe(`${MIXED_PROMPT_PREFIX} Tingxie, WenZi`);
    const many = Array.from({ length: 40 }, (_, i) => `Hotword${i}`);
    const p = promptWithPrefix(MIXED_PROMPT_PREFIX, many, { ...vocab, max_dynamic_hotwords: 100 });
    expect(p.startsWith(`${MIXED_PROMPT_PREFIX} `)).toBe(true);
    expect([...p].length).toBeLessThanOrEqual(200);
    expect([...p].length).toBeGreaterThan(180); // the room left is used
    const tight = promptWithPrefix(MIXED_PROMPT_PREFIX, ['abcd', 'efgh'], { ...vocab, max_hotword_chars: [...MIXED_PROMPT_PREFIX].length + 5 });
    expect(tight).toBe(`${MIXED_PROMPT_PREFIX} abcd`);
  });

  it('the prefix is the language choice: sent with the vocabulary off or no room left', () => {
    expect(promptWithPrefix(MIXED_PROMPT_PREFIX, ['Tingxie'], { ...vocab, enabled: false })).toBe(MIXED_PROMPT_PREFIX);
    expect(promptWithPrefix(MIXED_PROMPT_PREFIX, ['Tingxie'], { ...vocab, max_hotword_chars: 10 })).toBe(MIXED_PROMPT_PREFIX);
    expect(promptWithPrefix(MIXED_PROMPT_PREFIX, [], vocab)).toBe(MIXED_PROMPT_PREFIX);
  });

  it('the prefix is short, mixed-script Simplified Chinese with an English word', () => {
    expect([...MIXED_PROMPT_PREFIX].length).toBe(21);
    expect(MIXED_PROMPT_PREFIX).toMatch(/\p{Script=Han}/u);
    expect(MIXED_PROMPT_PREFIX).toMatch(/[A-Za-z]+/);
  });
});
