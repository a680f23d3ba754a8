import type { SqliteDb } from './index-db.ts';
import { statsQuerySchema, type StatsQuery, type UsageCounters, type UsageStats } from '../../../shared/history/query.ts';
import { countWords } from '../../../shared/count-words.ts';
import { InvalidHistoryQueryError } from './index-query.ts';
import { ridBase, RID_SLOTS } from './index-schema.ts';

/**
 * Usage statistics aggregated in SQL by local day. The day is computed from the rowid (timestamp ms
 * × 1024), so the window is a rowid range on the primary key and no timestamp parsing happens in SQL.
 * One fixed offset is applied to the whole window (a DST change inside it shifts an hour of records).
 */

const DAY_MS = 86_400_000;
const DELIVERED = `(outcome IS NULL OR outcome IN ('confirmed', 'copied', 'direct'))`;

function zero(): UsageCounters {
  return { dictations: 0, minutesSpoken: 0, confirmed: 0, corrected: 0, cancelled: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, words: 0 };
}

function add(into: UsageCounters, g: GroupRow): UsageCounters {
  return {
    dictations: into.dictations + g.n,
    minutesSpoken: into.minutesSpoken + g.secs / 60,
    confirmed: into.confirmed + g.confirmed,
    corrected: into.corrected + g.corrected,
    cancelled: into.cancelled + g.cancelled,
    promptTokens: into.promptTokens + g.pt,
    completionTokens: into.completionTokens + g.ct,
    cachedTokens: into.cachedTokens + g.cached,
    words: into.words + g.words,
  };
}

interface GroupRow {
  dayn: number;
  mode: string;
  n: number;
  secs: number;
  confirmed: number;
  corrected: number;
  cancelled: number;
  pt: number;
  ct: number;
  cached: number;
  /** Words of the group's delivered texts (counted in JS: SQLite has no notion of a Chinese word). */
  words: number;
}

function dayString(dayn: number): string {
  return new Date(dayn * DAY_MS).toISOString().slice(0, 10);
}

/** The local day of the oldest indexed record ('all' starts there), or `lastDay` when there is none. */
function firstRecordDay(db: SqliteDb, offMs: number, lastDay: number): number {
  const row = db.prepare(`SELECT ((min(rid) / ${RID_SLOTS}) + CAST(? AS INTEGER)) / ${DAY_MS} AS dayn FROM records`).get(offMs) as { dayn: number | null } | undefined;
  return row?.dayn === null || row?.dayn === undefined ? lastDay : Math.min(lastDay, row.dayn);
}

/** Words of the delivered texts per day and mode (key `day\0mode`): one pass over the window's texts. */
function wordsByGroup(db: SqliteDb, offMs: number, from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  const rows = db
    .prepare(`SELECT ((rid / ${RID_SLOTS}) + CAST(? AS INTEGER)) / ${DAY_MS} AS dayn, mode, final_text AS text FROM records WHERE rid >= ? AND rid < ? AND ${DELIVERED}`)
    .iterate(offMs, from, to) as Iterable<{ dayn: number; mode: string; text: string }>;
  for (const r of rows) {
    const key = `${r.dayn}\u0000${r.mode}`;
    out.set(key, (out.get(key) ?? 0) + countWords(r.text));
  }
  return out;
}

/** Computes UsageStats for a window of local days over every indexed record (active and archived). */
export function computeUsageStats(db: SqliteDb, input: StatsQuery): UsageStats {
  const parsed = statsQuerySchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidHistoryQueryError(`Invalid stats query: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const q = parsed.data;
  const offMs = q.tzOffsetMinutes * 60_000;
  const nowMs = q.now !== undefined ? Date.parse(q.now) : Date.now();
  const lastDay = Math.floor((nowMs + offMs) / DAY_MS);
  const firstDay = q.since !== undefined ? Math.floor((Date.parse(q.since) + offMs) / DAY_MS) : q.days === 'all' ? firstRecordDay(db, offMs, lastDay) : lastDay - (q.days - 1);
  const startMs = Math.max(0, firstDay * DAY_MS - offMs);
  const endMs = Math.max(0, (lastDay + 1) * DAY_MS - offMs);
  const groups = db
    .prepare(
      `SELECT ((rid / ${RID_SLOTS}) + CAST(? AS INTEGER)) / ${DAY_MS} AS dayn, mode, count(*) AS n, total(audio_duration) AS secs,
        sum(${DELIVERED}) AS confirmed, sum(corrected = 1 AND ${DELIVERED}) AS corrected,
        sum(outcome = 'cancelled') AS cancelled, total(prompt_tokens) AS pt, total(completion_tokens) AS ct,
        total(cached_tokens) AS cached
       FROM records WHERE rid >= ? AND rid < ? GROUP BY dayn, mode`,
    )
    .all(offMs, ridBase(startMs), ridBase(endMs)) as Omit<GroupRow, 'words'>[];
  const words = wordsByGroup(db, offMs, ridBase(startMs), ridBase(endMs));
  const perDayMap = new Map<number, UsageCounters>();
  const perMode: Record<string, UsageCounters> = {};
  let totals = zero();
  for (const g of groups) {
    // sum() of booleans is NULL-free here (count ≥ 1 per group), but coerce defensively.
    const row: GroupRow = { ...g, confirmed: g.confirmed ?? 0, corrected: g.corrected ?? 0, cancelled: g.cancelled ?? 0, words: words.get(`${g.dayn}\u0000${g.mode}`) ?? 0 };
    perDayMap.set(row.dayn, add(perDayMap.get(row.dayn) ?? zero(), row));
    perMode[row.mode] = add(perMode[row.mode] ?? zero(), row);
    totals = add(totals, row);
  }
  const perDay: UsageStats['perDay'] = [];
  for (let d = firstDay; d <= lastDay; d++) perDay.push({ day: dayString(d), ...(perDayMap.get(d) ?? zero()) });
  return { from: dayString(firstDay), to: dayString(lastDay), tzOffsetMinutes: q.tzOffsetMinutes, perDay, perMode, totals };
}
