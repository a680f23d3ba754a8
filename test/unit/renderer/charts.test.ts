import { describe, expect, it } from 'vitest';
import { axisTicks } from '../../../src/renderer/components/bar-chart.tsx';
import { chartRows, MAX_DAY_BARS, minutesSaved, wordsPerMinute } from '../../../src/renderer/history/stats-figures.ts';
import { cachedPercent } from '../../../src/renderer/history/stats-view.tsx';

describe('chart axis', () => {
  it('counts get whole-number gridlines: a bar of 3 ends on the "3" line, never under a rounded "3" at 2.5', () => {
    expect(axisTicks(3, true)).toEqual([0, 1, 2, 3]);
    expect(axisTicks(1, true)).toEqual([0, 1]);
    expect(axisTicks(0, true)).toEqual([0, 1]);
    expect(axisTicks(5, true)).toEqual([0, 2, 4, 6]);
    expect(axisTicks(120, true)).toEqual([0, 50, 100, 150]);
    for (const v of [1, 2, 3, 7, 13, 99, 1001, 54_321]) {
      const t = axisTicks(v, true);
      expect(t.every(Number.isInteger)).toBe(true);
      expect(t.at(-1)).toBeGreaterThanOrEqual(v);
      expect(t.length).toBeLessThanOrEqual(6);
      expect(new Set(t).size).toBe(t.length);
    }
  });

  it('measures (minutes) may step in fractions; the top is never below the data', () => {
    expect(axisTicks(1, false)).toEqual([0, 0.5, 1]);
    expect(axisTicks(0.3, false)).toEqual([0, 0.1, 0.2, 0.3]);
    for (const v of [0.07, 2.5, 19, 501, 12_345]) expect(axisTicks(v, false).at(-1)).toBeGreaterThanOrEqual(v);
  });

  it('cached share in whole percent, 0 without prompt tokens', () => {
    expect(cachedPercent({ promptTokens: 0, cachedTokens: 0 })).toBe(0);
    expect(cachedPercent({ promptTokens: 3000, cachedTokens: 1024 })).toBe(34);
    expect(cachedPercent({ promptTokens: 1000, cachedTokens: 1000 })).toBe(100);
  });
});

describe('usage figures', () => {
  it('words per minute of speaking and minutes saved against typing at 40 a minute', () => {
    expect(wordsPerMinute({ words: 300, minutesSpoken: 2 })).toBe(150);
    expect(wordsPerMinute({ words: 10, minutesSpoken: 0 })).toBe(0);
    // 400 words typed take 10 minutes; said in 2, that is 8 minutes saved.
    expect(minutesSaved({ words: 400, minutesSpoken: 2 })).toBe(8);
    expect(minutesSaved({ words: 10, minutesSpoken: 5 })).toBe(0);
  });

  it('long ranges are charted per month, summed; short ones per day', () => {
    const zero = { dictations: 0, minutesSpoken: 0, confirmed: 0, corrected: 0, cancelled: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, words: 0 };
    const days = Array.from({ length: 90 }, (_, i) => ({ ...zero, day: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10), dictations: 1, words: 2 }));
    const { rows, monthly } = chartRows(days);
    expect(monthly).toBe(true);
    expect(rows.map((r) => [r.day, r.dictations, r.words])).toEqual([['2025-01', 31, 62], ['2025-02', 28, 56], ['2025-03', 31, 62]]);
    expect(chartRows(days.slice(0, MAX_DAY_BARS)).monthly).toBe(false);
  });
});
