import { describe, expect, it } from 'vitest';
import { collapseRepetition, guardHallucinations, isKnownHallucination } from '../../../../src/main/asr/hallucination.ts';
import { buildInitialPrompt } from '../../../../src/main/asr/initial-prompt.ts';
import { findModel, MODEL_CATALOG, modelUrl } from '../../../../src/main/asr/model-catalog.ts';
import { AsrError, isRetryableCode } from '../../../../src/main/asr/types.ts';

describe('initial prompt from hotwords', () => {
  it('joins hotwords, dedupes case-insensitively and caps at 10 words', () => {
    const words = ['Kubernetes', 'kubernetes', ' PostgreSQL ', '', ...Array.from({ length: 20 }, (_, i) => `w${i}`)];
    const p = buildInitialPrompt(words);
    expect(p.split(', ')).toHaveLength(10);
    expect(p.startsWith('Kubernetes, PostgreSQL, w0')).toBe(true);
  });

  it('never exceeds 200 characters and keeps words whole', () => {
    const words = Array.from({ length: 10 }, (_, i) => `${'x'.repeat(30)}${i}`);
    const p = buildInitialPrompt(words);
    expect(p.length).toBeLessThanOrEqual(200);
    expect(p.split(', ').every((w) => w.length === 31)).toBe(true);
    expect(buildInitialPrompt(['短', 'a'.repeat(300)], { maxChars: 200 })).toBe('短');
    expect(buildInitialPrompt(['听写', '语音识别'], { maxHotwords: 1 })).toBe('听写');
  });

  it('flattens separators inside a hotword and gives "" for nothing', () => {
    expect(buildInitialPrompt(['a,b\nc'])).toBe('a b c');
    expect(buildInitialPrompt([])).toBe('');
  });
});

describe('hallucination guard', () => {
  const seg = (text: string) => ({ startMs: 0, endMs: 1000, text });
  it('drops known silence phrases on quiet audio only', () => {
    expect(isKnownHallucination(' Thank you.')).toBe(true);
    expect(isKnownHallucination('字幕由Amara.org社区提供')).toBe(true);
    const quiet = guardHallucinations({ segments: [seg(' Thank you.'), seg(' real words')], rmsInt16: 25 });
    expect(quiet.kept.map((s) => s.text)).toEqual([' real words']);
    const loud = guardHallucinations({ segments: [seg(' Thank you.')], rmsInt16: 3000 });
    expect(loud.kept).toHaveLength(1);
  });

  it('uses no-speech probability where given and collapses loops', () => {
    const r = guardHallucinations({ segments: [seg('hmm'), seg('ok')], rmsInt16: 30, noSpeechProb: [0.9, 0.1] });
    expect(r.kept.map((s) => s.text)).toEqual(['ok']);
    expect(collapseRepetition('go go go go go go')).toBe('go');
    expect(collapseRepetition('normal sentence')).toBe('normal sentence');
  });
});

describe('catalog and errors', () => {
  it('lists tiny → large-v3-turbo with .en and quantized variants and SHA-1s', () => {
    for (const n of ['tiny', 'tiny.en', 'base', 'small', 'medium', 'large-v3', 'large-v3-turbo', 'large-v3-turbo-q5_0']) expect(findModel(n)).toBeDefined();
    expect(MODEL_CATALOG.filter((e) => e.sherpa === undefined).every((e) => /^[0-9a-f]{40}$/.test(e.sha1 ?? ''))).toBe(true);
    expect(findModel('base.en')?.englishOnly).toBe(true);
    expect(findModel('base-q5_1')?.quantized).toBe(true);
    expect(modelUrl('https://mirror.example/whisper/', 'tiny')).toBe('https://mirror.example/whisper/ggml-tiny.bin');
  });

  it('classifies retryable errors', () => {
    expect(isRetryableCode('timeout')).toBe(true);
    expect(isRetryableCode('auth')).toBe(false);
    expect(new AsrError('server', 'x', { status: 500 })).toMatchObject({ code: 'server', retryable: true, status: 500 });
  });
});
