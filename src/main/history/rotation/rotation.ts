import type { ArchiveMonth } from '../paths.ts';

/** Seed: rotation is skipped while the active file is smaller than this (cheap guard, no line counting). */
export const ROTATE_MIN_BYTES = 4 * 1024 * 1024;
/** Seed: the active file keeps at most this many records (`_MAX_RECORDS`); not configurable by users. */
export const MAX_ACTIVE_RECORDS = 20_000;
/**
 * A due rotation waits for this much quiet after the last append (Tingxie's scheduling, not the seed's
 * rule): it rewrites the whole active file, and run between dictations it never delays a save.
 */
export const ROTATION_QUIET_MS = 1000;
/** …but no longer than this after the first append that made it due. */
export const ROTATION_MAX_DEFER_MS = 15_000;

/** The UTC month `YYYY-MM` of an ISO timestamp, or `unknown` when it cannot be parsed. Pure. */
export function archiveMonthOf(timestamp: unknown): ArchiveMonth {
  if (typeof timestamp !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(timestamp)) return 'unknown';
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return 'unknown';
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (y < 1000 || y > 9999) return 'unknown';
  return `${y}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Room a rotation needs beyond the active file's size: the intent, archive tails and page rounding. */
const ROTATION_HEADROOM_BYTES = 64 * 1024;

/**
 * Whether a file system with `freeBytes` free can hold a rotation of an active file of `activeBytes`:
 * it writes the moving records to archives and the kept ones to a temp copy (together the whole file)
 * before the old file is freed. Used to retry a rotation the full disk failed as soon as room is back. Pure.
 */
export function hasRoomToRotate(freeBytes: number, activeBytes: number): boolean {
  return freeBytes >= activeBytes + ROTATION_HEADROOM_BYTES;
}

/** Whether a rotation check must read the file: the seed's size guard. Pure. */
export function needsCountCheck(sizeBytes: number, minBytes: number = ROTATE_MIN_BYTES): boolean {
  return sizeBytes >= minBytes;
}

/** One record leaving the active file. */
export interface RotationMove {
  readonly key: string;
  readonly month: ArchiveMonth;
  /** The line exactly as it was in the active file (copied verbatim into the archive). */
  readonly text: string;
}

/** Moves grouped by month, months in ascending order (`unknown` last). Pure. */
export function groupByMonth(moves: readonly RotationMove[]): Map<ArchiveMonth, RotationMove[]> {
  const groups = new Map<ArchiveMonth, RotationMove[]>();
  for (const m of moves) {
    const g = groups.get(m.month);
    if (g) g.push(m);
    else groups.set(m.month, [m]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a === 'unknown' ? 1 : b === 'unknown' ? -1 : a.localeCompare(b))));
}
