import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, formatTimestamp, isFiltered, rowPreview, rowTime, shortModel, sinceOf, toHistoryQuery, toggleTag } from '../../../src/renderer/lib/history-filters.ts';

describe('history filters', () => {
  const now = new Date(2026, 2, 12, 15, 30); // local time, 12 March 2026

  it('time ranges start at local midnight: today, today + 6 days back, today + 29 back; all has none', () => {
    expect(new Date(sinceOf('today', now) ?? '').getTime()).toBe(new Date(2026, 2, 12).getTime());
    expect(new Date(sinceOf('7d', now) ?? '').getTime()).toBe(new Date(2026, 2, 6).getTime());
    expect(new Date(sinceOf('30d', now) ?? '').getTime()).toBe(new Date(2026, 1, 11).getTime());
    expect(sinceOf('all', now)).toBeUndefined();
  });

  it('builds the query: trimmed, capped search text, tags copied, corrected and cursor only when set', () => {
    const q = toHistoryQuery({ ...DEFAULT_FILTERS, text: `  ${'萍'.repeat(300)}  `, modes: ['proofread'], corrected: true, archived: true }, now, 'CURSOR');
    expect(q.text).toHaveLength(200);
    expect(q).toMatchObject({ modes: ['proofread'], sttModels: [], llmModels: [], corrected: true, includeArchived: true, cursor: 'CURSOR' });
    const plain = toHistoryQuery({ ...DEFAULT_FILTERS, time: 'all' }, now);
    expect(plain).not.toHaveProperty('since');
    expect(plain).not.toHaveProperty('corrected');
    expect(plain).not.toHaveProperty('cursor');
  });

  it('toggles tags on and off without touching other groups; isFiltered sees any change from the defaults', () => {
    const on = toggleTag(DEFAULT_FILTERS, 'llmModels', 'qwen');
    expect(on.llmModels).toEqual(['qwen']);
    expect(toggleTag(on, 'llmModels', 'qwen').llmModels).toEqual([]);
    expect(DEFAULT_FILTERS.llmModels).toEqual([]); // not mutated
    expect(isFiltered(DEFAULT_FILTERS)).toBe(false);
    expect(isFiltered(on)).toBe(true);
    expect(isFiltered({ ...DEFAULT_FILTERS, time: 'all' })).toBe(true);
  });

  it('formats timestamps, model names and row previews', () => {
    expect(formatTimestamp(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe('2026-01-02 03:04:05');
    expect(formatTimestamp('not a date')).toBe('not a date');
    expect(shortModel('qwen2.5:7b')).toBe('qwen2.5:7b');
    // Cut after a whole part, never mid-word; a provider prefix dropped.
    expect(shortModel('whisper-large-v3-turbo-q5_0')).toBe('whisper-large-v3…');
    expect(shortModel('remote:openai/whisper-1')).toBe('whisper-1');
    expect(shortModel('funasr-paraformer-zh-streaming-transformer')).toBe('funasr-paraformer…');
    expect(shortModel('deepseek-v4-flash')).toBe('deepseek-v4-flash');
    expect(shortModel('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghijklmnopq…');
    expect(shortModel('funasr-paraformer', 10)).toBe('funasr…');
    // Row times: today the clock, this year month-day and clock, earlier the date.
    const now = new Date(2026, 10, 27, 22, 0, 0);
    expect(rowTime(new Date(2026, 10, 27, 9, 5, 1).toISOString(), now)).toBe('09:05');
    expect(rowTime(new Date(2026, 0, 2, 3, 4, 5).toISOString(), now)).toBe('01-02 03:04');
    expect(rowTime(new Date(2025, 11, 31, 23, 59).toISOString(), now)).toBe('2025-12-31');
    expect(rowTime('not a date', now)).toBe('not a date');
    expect(rowPreview('', '  raw\n text ')).toBe('raw text');
    expect(rowPreview('x'.repeat(200), '').length).toBeLessThanOrEqual(81);
  });
});
