import { describe, expect, it } from 'vitest';
import { niceMax } from '../../../src/renderer/components/bar-chart.tsx';
import { cachedPercent } from '../../../src/renderer/history/stats-view.tsx';

describe('chart scaling', () => {
  it('rounds the axis up to 1, 2 or 5 × 10^k, never below the data', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(-3)).toBe(1);
    expect(niceMax(0.3)).toBe(0.5);
    expect(niceMax(1)).toBe(1);
    expect(niceMax(1.01)).toBe(2);
    expect(niceMax(3)).toBe(5);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(120)).toBe(200);
    expect(niceMax(999_999)).toBe(1_000_000);
    for (const v of [0.07, 2.5, 19, 501, 12_345]) expect(niceMax(v)).toBeGreaterThanOrEqual(v);
  });

  it('cached share in whole percent, 0 without prompt tokens', () => {
    expect(cachedPercent({ promptTokens: 0, cachedTokens: 0 })).toBe(0);
    expect(cachedPercent({ promptTokens: 3000, cachedTokens: 1024 })).toBe(34);
    expect(cachedPercent({ promptTokens: 1000, cachedTokens: 1000 })).toBe(100);
  });
});
