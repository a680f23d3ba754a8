import { describe, expect, it } from 'vitest';
import { htmlLang, messageKeys, resolveLanguage, translate } from '../../../src/renderer/lib/i18n.ts';

describe('i18n', () => {
  it('a fixed ui.language wins over the OS language', () => {
    expect(resolveLanguage('zh', 'en-US')).toBe('zh');
    expect(resolveLanguage('en', 'zh-CN')).toBe('en');
  });

  it("'system' (and anything unknown) follows navigator.language; Chinese variants map to zh", () => {
    expect(resolveLanguage('system', 'zh-CN')).toBe('zh');
    expect(resolveLanguage('system', 'zh-TW')).toBe('zh');
    expect(resolveLanguage('system', 'ZH')).toBe('zh');
    expect(resolveLanguage('system', 'en-GB')).toBe('en');
    expect(resolveLanguage('system', 'fr-FR')).toBe('en');
    expect(resolveLanguage(undefined, undefined)).toBe('en');
    expect(resolveLanguage('klingon', 'zh-HK')).toBe('zh');
  });

  it('every key has a non-empty string in both languages', () => {
    for (const key of messageKeys) {
      expect(translate('en', key).trim(), key).not.toBe('');
      expect(translate('zh', key).trim(), key).not.toBe('');
    }
  });

  it('both languages use the same placeholders for each key', () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of messageKeys) {
      // translate without vars leaves placeholders in place, so their names can be compared.
      expect(names(translate('zh', key)), key).toEqual(names(translate('en', key)));
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'ai.key.label', { provider: 'openai' })).toBe('API key for provider “openai”');
    expect(translate('zh', 'ai.key.label', { provider: 'openai' })).toBe('服务商“openai”的 API 密钥');
    expect(translate('en', 'ai.key.label')).toContain('{provider}');
  });

  it('maps UI languages to html lang tags', () => {
    expect(htmlLang('zh')).toBe('zh-CN');
    expect(htmlLang('en')).toBe('en');
  });
});
