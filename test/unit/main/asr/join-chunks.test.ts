import { describe, expect, it } from 'vitest';
import { joinChunkTexts } from '../../../../src/main/asr/join-chunks.ts';

describe('joinChunkTexts: chunks decoded separately read as one text', () => {
  it('Chinese: no space; a clause break where neither side has punctuation (a pause of ≥ 300 ms)', () => {
    expect(joinChunkTexts(['今天天气不错。', '我们去公园吧。'])).toBe('今天天气不错。我们去公园吧。');
    expect(joinChunkTexts(['今天天气不错', '我们去公园吧'])).toBe('今天天气不错，我们去公园吧');
    expect(joinChunkTexts(['好的，', '没问题'])).toBe('好的，没问题');
  });

  it('English: one space between words and after punctuation, none before punctuation', () => {
    expect(joinChunkTexts([' Hello world.', ' How are you?'])).toBe('Hello world. How are you?');
    expect(joinChunkTexts(['send the report', 'before friday'])).toBe('send the report before friday');
    expect(joinChunkTexts(['wait', ', what?'])).toBe('wait, what?');
  });

  it('mixed Chinese and English: no space at the script boundary unless Latin punctuation ends the chunk', () => {
    expect(joinChunkTexts(['我们用', 'Python 写'])).toBe('我们用Python 写');
    expect(joinChunkTexts(['发给 Alice', '明天见'])).toBe('发给 Alice明天见');
    expect(joinChunkTexts(['OK.', '好的'])).toBe('OK. 好的');
    expect(joinChunkTexts(['好的。', 'OK'])).toBe('好的。OK');
  });

  it('skips empty and blank chunks (a pause decoded as nothing)', () => {
    expect(joinChunkTexts(['', '  ', '你好', '', '世界'])).toBe('你好，世界');
    expect(joinChunkTexts([])).toBe('');
  });
});
