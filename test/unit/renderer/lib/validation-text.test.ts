import { describe, expect, it } from 'vitest';
import { validationText, validationTexts } from '../../../../src/renderer/lib/validation-text.ts';

describe('validationText: schema issues in the UI language', () => {
  const small = { path: 'a.b', message: 'Too small: expected number to be >=1', code: 'too_small', origin: 'number', limit: 1, inclusive: true };
  const big = { path: 'a.b', message: 'Too big: expected number to be <=1000', code: 'too_big', origin: 'number', limit: 1000, inclusive: true };

  it('out-of-range numbers name the field in zh and en', () => {
    expect(validationText(small, 'zh', '重建后的条数')).toBe('“重建后的条数”不能小于 1。');
    expect(validationText(small, 'en', 'Entries after a rebuild')).toBe('“Entries after a rebuild” must be at least 1.');
    expect(validationText(big, 'zh', '保留天数')).toBe('“保留天数”不能大于 1000。');
    expect(validationText({ ...small, limit: 0, inclusive: false }, 'en')).toBe('The value must be greater than 0.');
    expect(validationText({ ...big, inclusive: false }, 'zh')).toBe('该值必须小于 1000。');
  });

  it('text lengths, types, choices, formats', () => {
    expect(validationText({ path: 'x', message: '', code: 'too_small', origin: 'string', limit: 1 }, 'zh', '名称')).toBe('“名称”不能为空。');
    expect(validationText({ path: 'x', message: '', code: 'too_big', origin: 'string', limit: 200 }, 'en', 'Name')).toBe('“Name” must be at most 200 characters.');
    expect(validationText({ path: 'x', message: '', code: 'invalid_type', expected: 'number' }, 'zh', '端口')).toBe('“端口”必须是数字。');
    expect(validationText({ path: 'x', message: '', code: 'invalid_type', expected: 'int' }, 'en', 'Port')).toBe('“Port” must be a whole number.');
    expect(validationText({ path: 'x', message: '', code: 'invalid_value' }, 'zh', '引擎')).toBe('“引擎”必须是列表中的一项。');
    expect(validationText({ path: 'x', message: '', code: 'invalid_format' }, 'en', 'URL')).toBe('“URL” is not in the expected format.');
  });

  it('an unknown code: the library words in English, a plain sentence in Chinese (never English in the zh UI)', () => {
    const custom = { path: 'x', message: 'must be an http(s) URL', code: 'custom' };
    expect(validationText(custom, 'en', 'Base URL')).toBe('must be an http(s) URL');
    expect(validationText(custom, 'zh', '基础 URL')).toBe('“基础 URL”的值无效。');
    expect(validationText(custom, 'zh')).not.toMatch(/[A-Za-z]/);
  });

  it('validationTexts: the issues about the field first, duplicates merged', () => {
    const other = { ...small, path: 'c' };
    expect(validationTexts([other, small, small], 'zh', 'a.b', '条数')).toBe('“条数”不能小于 1。');
    expect(validationTexts([other], 'en', 'a.b', 'Entries')).toBe('The value must be at least 1.');
  });
});
