import fs from 'node:fs';
import path from 'node:path';
import { recordKey, type StoredRecord } from '../../shared/history/record.ts';
import { writeFileAtomic } from '../platform/durable-fs.ts';
import { openRegularSync, READ_FLAGS } from '../platform/regular-open.ts';
import type { HistoryStore } from './store/history-store.ts';

/*
 * Retention by the wall-clock age of the write, not by a record's own timestamp alone. A record's
 * timestamp is what the clock said when it was written; after the clock jumped back (17 months, say) and
 * was corrected, records dictated minutes ago carry old timestamps, and a sweep that trusted them
 * deleted them. The timestamps are never changed (they are what the user's record says); the sweep
 * dates records differently:
 *
 * 1. Within a file, file order is write order. `log()` appends to the active file; rotation moves a
 *    leading run of the active file, in its order, to the end of the month archives (rotation-run.ts:
 *    the kept records are `records.slice(moves.length)`); import merges old records by timestamp, which
 *    is an order the argument below tolerates (it only makes the sweep keep more).
 * 2. So a record was written no earlier than every record before it in its file. If those clocks were
 *    right, its write time is at least the running maximum of the timestamps up to it. A record below
 *    that maximum was written while the clock was behind: the maximum, not its own timestamp, dates it.
 * 3. The sweep deletes a record only when that running maximum is older than the cutoff. In each file
 *    that is the longest leading run of expired records: the first record that must be kept protects
 *    every record after it. Dictations made with the clock 17 months back follow the user's recent
 *    records in the active file, so they are kept.
 * 4. When nothing kept comes before them (every earlier record expired, or the file was empty), the
 *    file alone cannot date them. So each sweep remembers, per data folder (SWEEPS_FILE), when it ran
 *    and which record was last in the active file: every record after that one — every record, when it
 *    is gone (swept, or rotated out with all before it) — was written after that sweep, and that time
 *    joins the running maximum there. A sweep's own record is dropped once it is older than the cutoff
 *    (it can no longer keep anything), so at most one a day for the retention period is kept.
 * 5. Archives hold records moved out of the active file, each month file in the order they were moved,
 *    so rule 3 applies to each archive file on its own. Rotation keeps the newest 20,000 writes in the
 *    active file, so a record just written is not in an archive; the sweep records of rule 4 name the
 *    active file only.
 * 6. A clock that jumps forward writes timestamps in the future (or a sweep records a future time).
 *    They raise the running maximum, so the record and every record after it in its file are kept until
 *    real time catches up: retention may keep records longer than asked, never delete them early. A
 *    sweep run while its own clock is ahead cannot be told from one run after real time passed.
 * 7. What cannot be dated (an unparseable timestamp) is kept, and neither ends nor extends the run.
 */

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;

/** Where the sweeps of rule 4 are remembered, in the data folder. */
export const SWEEPS_FILE = 'retention-sweeps.json';

/** One earlier sweep (rule 4): every record after `lastKey` in the active file (all of them when null or gone) was written after `at`. */
export interface SweepMark {
  /** When the sweep ran, in ms since the epoch (its own clock). */
  readonly at: number;
  /** Key of the last record of the active file then; null when it was empty. */
  readonly lastKey: string | null;
}

/**
 * Keys of the records of one file (in file order) that the sweep may delete: those whose running maximum
 * timestamp (the earliest their write can have been, rule 2), raised by the earlier sweeps' times (rule 4,
 * active file only), is before `cutoffMs`. Pure.
 */
export function expiredByWriteOrder(records: readonly StoredRecord[], cutoffMs: number, marks: readonly SweepMark[] = []): string[] {
  const keys = new Set(records.map((r) => recordKey(r)));
  const raiseAfter = new Map<string, number>();
  let newestSoFar = -Infinity;
  for (const m of marks) {
    if (m.lastKey !== null && keys.has(m.lastKey)) raiseAfter.set(m.lastKey, Math.max(raiseAfter.get(m.lastKey) ?? -Infinity, m.at));
    else newestSoFar = Math.max(newestSoFar, m.at); // its last record is gone: everything here came after that sweep
  }
  const expired: string[] = [];
  for (const r of records) {
    const key = recordKey(r);
    const t = Date.parse(r.timestamp);
    // Rule 7: undatable records are kept and say nothing about when the next ones were written.
    if (!Number.isNaN(t)) {
      newestSoFar = Math.max(newestSoFar, t);
      if (newestSoFar >= cutoffMs) break; // rule 3: this record and every one after it are kept
      expired.push(key);
    }
    newestSoFar = Math.max(newestSoFar, raiseAfter.get(key) ?? -Infinity);
  }
  return expired;
}

/**
 * Deletes records written more than `days` days ago from active + archives (+ index via the store's
 * events), dated by write order (see the argument above), never by a timestamp the clock may have got wrong.
 */
export async function sweepRetention(store: HistoryStore, days: number, now: Date = new Date()): Promise<number> {
  if (!Number.isFinite(days) || days <= 0) throw new Error(`retention must be a positive number of days, got ${days}`);
  const cutoff = now.getTime() - days * DAY_MS;
  const marksFile = path.join(store.paths.dataDir, SWEEPS_FILE);
  const marks = readSweepMarks(marksFile);
  const expired = new Set<string>();
  let lastActiveKey: string | null = null;
  for (const file of await store.listFiles()) {
    const records = await store.readFile(file);
    if (file === 'active') lastActiveKey = records.length > 0 ? recordKey(records[records.length - 1] as StoredRecord) : null;
    for (const key of expiredByWriteOrder(records, cutoff, file === 'active' ? marks : [])) expired.add(key);
  }
  // By key: a record appended (or rotated) after the files were read is not in the set, so it is kept.
  const removed = expired.size === 0 ? 0 : await store.deleteWhere((r) => expired.has(recordKey(r)));
  await writeSweepMarks(marksFile, [...marks.filter((m) => m.at >= cutoff), { at: now.getTime(), lastKey: lastActiveKey }]);
  return removed;
}

/** The remembered sweeps; none when the file is missing or unreadable (the sweep then keeps only by rule 3). */
export function readSweepMarks(file: string): SweepMark[] {
  let parsed: unknown;
  try {
    // Checked to be a regular file before it is opened: a FIFO under this name must not freeze the sweep.
    const fd = openRegularSync(file, READ_FLAGS);
    try {
      parsed = JSON.parse(fs.readFileSync(fd, 'utf8'));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  const sweeps = (parsed as { sweeps?: unknown } | null)?.sweeps;
  if (!Array.isArray(sweeps)) return [];
  return sweeps.flatMap((m: { at?: unknown; lastKey?: unknown }) => {
    const at = typeof m?.at === 'string' ? Date.parse(m.at) : NaN;
    const lastKey = m?.lastKey === null || typeof m?.lastKey === 'string' ? m.lastKey : undefined;
    return Number.isNaN(at) || lastKey === undefined ? [] : [{ at, lastKey }];
  });
}

async function writeSweepMarks(file: string, marks: readonly SweepMark[]): Promise<void> {
  const doc = { version: 1, sweeps: marks.map((m) => ({ at: new Date(m.at).toISOString(), lastKey: m.lastKey })) };
  try {
    await writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
  } catch {
    // A folder that refuses it (read-only) refused the deletions too; the next sweep keeps by rule 3 alone.
  }
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
