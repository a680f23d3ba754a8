import { describe, expect, it } from 'vitest';
import { countWords } from '../../../src/shared/count-words.ts';

describe('countWords: a Chinese character or a Latin word is one word', () => {
  it.each([
    ['', 0],
    ['Hello, world.', 2],
    ["Don't e-mail me at 9 o'clock", 6],
    ['今天的项目进度。', 7],
    ['用 Python 写一个 script', 6],
    ['abc中文', 3],
    ['Ça va? Привет мир', 4],
    ['   ，。！', 0],
  ])('%j → %i', (text, n) => {
    expect(countWords(text)).toBe(n);
  });

  it('is linear: a megabyte of text is counted at once', () => {
    const t0 = performance.now();
    expect(countWords('字a '.repeat(350_000))).toBe(700_000);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
