/**
 * Keeping the recordings in step with the history and the retention setting: a deleted record (one, a
 * day, everything, or the history's own retention sweep) takes its audio with it, and the audio sweep
 * (audio.retention_days) runs shortly after start-up and then daily.
 */
import type { StoreEvent } from '../../history/store/store-types.ts';
import type { Recordings } from './recordings.ts';

/** Where upkeep reports. */
export interface UpkeepLog {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** Applies one history change to the recordings: deleted records lose their audio, a cleared history all of it. */
export function applyHistoryChange(recordings: Pick<Recordings, 'journal'>, e: StoreEvent): number {
  switch (e.type) {
    case 'deleted': {
      let removed = 0;
      for (const key of e.keys) if (recordings.journal.forgetRecord(key)) removed++;
      return removed;
    }
    case 'cleared':
      return recordings.journal.forgetAllRecords();
    case 'appended':
    case 'updated':
    case 'rotated':
    case 'added':
      return 0;
  }
}

/** Follows the history store's changes; the returned function stops it. */
export function followHistoryDeletions(recordings: Pick<Recordings, 'journal'>, onChange: (listener: (e: StoreEvent) => void) => () => void, log: UpkeepLog): () => void {
  return onChange((e) => {
    try {
      const removed = applyHistoryChange(recordings, e);
      if (removed > 0) log.info('recordings of deleted records removed', { removed });
    } catch (err) {
      // The record is gone either way; its audio then goes with the retention sweep.
      log.warn('recordings of deleted records not removed', { error: err instanceof Error ? err.message : String(err) });
    }
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Starts the audio retention sweep (first after `firstDelayMs`, then daily); the returned function stops it. Timers are unref'd. */
export function startRecordingSweeps(recordings: Pick<Recordings, 'sweep'>, log: UpkeepLog, timing: { readonly firstDelayMs?: number; readonly intervalMs?: number } = {}): () => void {
  const once = (): void => {
    try {
      const removed = recordings.sweep();
      if (removed > 0) log.info('audio retention sweep removed old recordings', { removed });
    } catch (err) {
      log.warn('audio retention sweep failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  let interval: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    once();
    interval = setInterval(once, timing.intervalMs ?? DAY_MS);
    interval.unref?.();
  }, timing.firstDelayMs ?? 60_000);
  first.unref?.();
  return () => {
    clearTimeout(first);
    if (interval !== undefined) clearInterval(interval);
  };
}
