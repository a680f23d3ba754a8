/**
 * Runs the retention sweep (history.retention_days; 0 keeps everything) shortly after start-up and then
 * once a day, so old records leave the JSONL, the archives and the index without the user doing anything.
 */
import type { HistoryService } from './history-service.ts';
import { sweepRetention } from './privacy.ts';

/** Where the sweep reports. */
export interface SweepLog {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Delay of the first sweep: start-up (index check, windows) goes first. */
const FIRST_SWEEP_DELAY_MS = 60 * 1000;

/**
 * One sweep now: removes records written more than `days` ago (a no-op for 0). Returns how many were
 * removed. `now` is the sweep's own clock; records are dated by write order, not by their timestamps
 * alone (privacy.ts), so a clock that was behind when they were written does not make them expire.
 */
export async function sweepOnce(history: HistoryService, days: number, log: SweepLog, now = new Date()): Promise<number> {
  if (days <= 0) return 0;
  try {
    const removed = await sweepRetention(history.store, days, now);
    if (removed > 0) log.info('retention sweep removed old records', { removed, days });
    return removed;
  } catch (err) {
    log.error('retention sweep failed', { error: err instanceof Error ? err.message : String(err) });
    return 0;
  }
}

/** Starts the schedule; the returned function stops it. Timers are unref'd so they never keep a process alive. */
export function startRetentionSweeps(
  history: HistoryService,
  retentionDays: () => number,
  log: SweepLog,
  timing: { readonly firstDelayMs?: number; readonly intervalMs?: number } = {},
): () => void {
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    void sweepOnce(history, retentionDays(), log);
    interval = setInterval(() => void sweepOnce(history, retentionDays(), log), timing.intervalMs ?? DAY_MS);
    interval.unref?.();
  }, timing.firstDelayMs ?? FIRST_SWEEP_DELAY_MS);
  first.unref?.();
  return () => {
    clearTimeout(first);
    if (interval !== undefined) clearInterval(interval);
  };
}
