import { describe, expect, it } from 'vitest';
import { extraBodyText, modelOf, modelSuggestions, modelsWithChosen, parseExtraBody, providersOf, suggestProviderId } from '../../../../src/renderer/settings/provider-config.ts';

/** The provider picker's pure reads and decisions over the config snapshot. */

const snapshot = {
  ai_enhance: {
    providers: {
      deepseek: { kind: 'deepseek', base_url: 'https://api.deepseek.com', models: ['deepseek-v4-flash', 'deepseek-v4-pro'] },
      groq: { kind: 'groq', base_url: 'https://api.groq.com/openai/v1', models: ['qwen/qwen3-32b'], extra_body: { top_p: 0.9 } },
      odd: { kind: 'no-such-kind', base_url: 7, models: 'x' },
    },
    default_provider: 'deepseek',
    default_model: 'deepseek-v4-pro',
  },
};

describe('provider picker helpers', () => {
  it('lists every provider, each with its own fields; an unknown kind reads as other', () => {
    expect(providersOf(snapshot)).toEqual([
      { id: 'deepseek', kind: 'deepseek', baseURL: 'https://api.deepseek.com', models: ['deepseek-v4-flash', 'deepseek-v4-pro'], extraBody: null },
      { id: 'groq', kind: 'groq', baseURL: 'https://api.groq.com/openai/v1', models: ['qwen/qwen3-32b'], extraBody: { top_p: 0.9 } },
      { id: 'odd', kind: 'other', baseURL: '', models: [], extraBody: null },
    ]);
    expect(providersOf(null)).toEqual([]);
  });
  it('the default provider’s model is default_model; another provider’s is its first model', () => {
    expect(modelOf(snapshot, 'deepseek')).toBe('deepseek-v4-pro');
    expect(modelOf(snapshot, 'groq')).toBe('qwen/qwen3-32b');
    expect(modelOf(snapshot, 'odd')).toBe('');
  });
  it('choosing a model puts it first, once', () => {
    expect(modelsWithChosen(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
    expect(modelsWithChosen(['a'], 'ep-2025')).toEqual(['ep-2025', 'a']);
  });
  it('a new provider gets a free id', () => {
    expect(suggestProviderId('openai', ['deepseek'])).toBe('openai');
    expect(suggestProviderId('openai', ['openai', 'openai-2'])).toBe('openai-3');
  });
  it('extra_body: shown as JSON, empty text is {}, anything but an object is refused', () => {
    expect(extraBodyText(null)).toBe('');
    expect(extraBodyText({ top_p: 0.9 })).toBe('{\n  "top_p": 0.9\n}');
    expect(parseExtraBody('  ')).toEqual({});
    expect(parseExtraBody('{"stream_options": null}')).toEqual({ stream_options: null });
    expect(parseExtraBody('[1]')).toBeNull();
    expect(parseExtraBody('{ nope')).toBeNull();
  });
  it('suggestions: the provider’s list first, then the preset’s names, then the configured ones, once each', () => {
    expect(modelSuggestions(['b', 'x'], ['a', 'b'], ['x', 'old'])).toEqual(['b', 'x', 'a', 'old']);
  });
});
