import { describe, expect, it } from 'vitest';
import { cer, cerCounts, editDistance, normalizeForCer } from '../../../bench/lib/cer.ts';

describe('CER (bench/lib/cer.ts)', () => {
  it('edit distance counts insertions, deletions and substitutions', () => {
    const d = (a: string, b: string): number => editDistance(Array.from(a), Array.from(b));
    expect(d('', '')).toBe(0);
    expect(d('abc', '')).toBe(3);
    expect(d('', 'ab')).toBe(2);
    expect(d('kitten', 'sitting')).toBe(3);
    expect(d('今天天气很好', '今天天汽很好啊')).toBe(2);
  });

  it('normalises case, width, punctuation, spaces and Traditional characters', async () => {
    expect((await normalizeForCer('Hello, World!  ＡＢ')).join('')).toBe('helloworldab');
    expect((await normalizeForCer('今天天氣很好，我們去公園散步吧。')).join('')).toBe('今天天气很好我们去公园散步吧');
  });

  it('is errors over reference characters, 0 for a match, 1 for nothing recognised', async () => {
    expect(await cer('今天天气很好。', '今天天氣很好')).toBe(0);
    expect(await cer('Please open the file.', 'please open the file')).toBe(0);
    expect(await cer('今天天气很好', '')).toBe(1);
    expect(await cer('abcd', 'abxd')).toBe(0.25);
    expect(await cerCounts('ab', 'abcdef')).toEqual({ errors: 4, length: 2 });
    expect(await cer('', '')).toBe(0);
  });
});
