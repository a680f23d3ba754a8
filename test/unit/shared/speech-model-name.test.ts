import { describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../../src/main/asr/model-catalog.ts';
import { speechModelName } from '../../../src/shared/speech-model-name.ts';

describe('speechModelName', () => {
  it('whisper.cpp names read as words, with or without the records’ whisper- prefix', () => {
    expect(speechModelName('small-q5_1', 'en')).toBe('Whisper Small (q5_1)');
    expect(speechModelName('whisper-small-q5_1', 'en')).toBe('Whisper Small (q5_1)');
    expect(speechModelName('base', 'zh')).toBe('Whisper Base');
    expect(speechModelName('base.en', 'en')).toBe('Whisper Base (English only)');
    expect(speechModelName('tiny.en-q8_0', 'zh')).toBe('Whisper Tiny（仅英语，q8_0）');
    expect(speechModelName('large-v3-turbo-q5_0', 'en')).toBe('Whisper Large v3 Turbo (q5_0)');
  });

  it('every catalog model gets a name; other names (cloud models, other engines) stay as they are', () => {
    for (const m of MODEL_CATALOG) expect(speechModelName(m.name, 'en')).toMatch(m.sherpa === undefined ? /^Whisper [A-Z]/ : /^(SenseVoice|Paraformer)\b/);
    expect(speechModelName('sense-voice-small-int8', 'zh')).toBe('SenseVoice-Small（int8）');
    expect(speechModelName('paraformer-zh-int8', 'en')).toBe('Paraformer Chinese-English (int8)');
    expect(speechModelName('whisper-1', 'en')).toBe('whisper-1');
    expect(speechModelName('funasr-paraformer', 'zh')).toBe('funasr-paraformer');
  });
});
