import type { HistoryStore } from './history-store.ts';

/** Deletes records older than `days` days (by timestamp) from active + archives (+ index via the store's events). */
export function sweepRetention(store: HistoryStore, days: number, now: Date = new Date()): Promise<number> {
  if (!Number.isFinite(days) || days <= 0) throw new Error(`retention must be a positive number of days, got ${days}`);
  const cutoff = now.getTime() - days * 86_400_000;
  // Unparseable timestamps are kept: a sweep must never delete what it cannot date.
  return store.deleteWhere((r) => {
    const t = Date.parse(r.timestamp);
    return !Number.isNaN(t) && t < cutoff;
  });
}

/** UTC bounds [start, end) of a local day `YYYY-MM-DD` at `tzOffsetMinutes` east of UTC (e.g. +480 for China). Pure. */
export function localDayBounds(day: string, tzOffsetMinutes: number): { start: number; end: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new Error(`day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - tzOffsetMinutes * 60_000;
  return { start, end: start + 86_400_000 };
}

/** Deletes every record of one local day. */
export function deleteDay(store: HistoryStore, day: string, tzOffsetMinutes: number): Promise<number> {
  const { start, end } = localDayBounds(day, tzOffsetMinutes);
  return store.deleteWhere((r) => {
    const t = Date.parse(r.timestamp);
    return t >= start && t < end;
  });
}

/** Deletes all history. */
export function deleteAll(store: HistoryStore): Promise<void> {
  return store.clear();
}
