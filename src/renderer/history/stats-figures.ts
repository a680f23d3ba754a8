/** Usage figures derived from the counters (pure, unit-tested): words per minute, time saved, month buckets. */
import type { UsageCounters, UsageStats } from '../../shared/history/query.ts';

/** A typical typing speed in words a minute (a Chinese character counts as a word, shared/count-words.ts). */
export const TYPING_WPM = 40;

/** Words per minute of speaking, rounded; 0 before anything was spoken. */
export function wordsPerMinute(c: Pick<UsageCounters, 'words' | 'minutesSpoken'>): number {
  return c.minutesSpoken > 0 ? Math.round(c.words / c.minutesSpoken) : 0;
}

/** Minutes saved against typing the same words at {@link TYPING_WPM}, never below 0. */
export function minutesSaved(c: Pick<UsageCounters, 'words' | 'minutesSpoken'>, typingWpm = TYPING_WPM): number {
  return Math.max(0, c.words / typingWpm - c.minutesSpoken);
}

/** Up to this many days the charts have a bar per day; longer ranges (all time) get one per month. */
export const MAX_DAY_BARS = 62;

type Row = UsageStats['perDay'][number];

/** Per-day rows summed into per-month rows (`day` becomes `YYYY-MM`), oldest first; short ranges are returned as they are. */
export function chartRows(perDay: readonly Row[]): { readonly rows: readonly Row[]; readonly monthly: boolean } {
  if (perDay.length <= MAX_DAY_BARS) return { rows: perDay, monthly: false };
  const months = new Map<string, Row>();
  for (const d of perDay) {
    const key = d.day.slice(0, 7);
    const m = months.get(key);
    if (m === undefined) {
      months.set(key, { ...d, day: key });
      continue;
    }
    months.set(key, {
      day: key,
      dictations: m.dictations + d.dictations,
      minutesSpoken: m.minutesSpoken + d.minutesSpoken,
      confirmed: m.confirmed + d.confirmed,
      corrected: m.corrected + d.corrected,
      cancelled: m.cancelled + d.cancelled,
      promptTokens: m.promptTokens + d.promptTokens,
      completionTokens: m.completionTokens + d.completionTokens,
      cachedTokens: m.cachedTokens + d.cachedTokens,
      words: m.words + d.words,
    });
  }
  return { rows: [...months.values()], monthly: true };
}
