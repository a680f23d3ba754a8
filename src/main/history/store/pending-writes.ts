import { access, constants } from 'node:fs/promises';
import { historyRecordSchema, recordKey, type HistoryRecord, type RecordUpdate, type StoredRecord } from '../../../shared/history/record.ts';
import { appendDurable } from '../../platform/durable-fs.ts';
import { TAIL_BYTES } from '../index/index-follow.ts';
import type { HistoryPaths } from '../paths.ts';
import type { RotationScheduler } from '../rotation/rotation-scheduler.ts';
import { StoreHealth } from './store-health.ts';
import type { StoreRepair } from './store-repair.ts';
import { errorText, isDiskError, type AppendSpan, type HistoryHealth } from './store-types.ts';

/**
 * The history store's degraded mode: every new record is held here until it is on disk, so a full or
 * read-only disk never loses one. Records wait in memory, oldest first, and are written before anything
 * newer in one append; while the disk refuses them the store reports `health` and retries with backoff
 * (and on every new record). Kept apart from the store so the "never lose a record" path is one small
 * piece to read, with the store only deciding what an appended record means (events, caches).
 */

/** What the pending writes need from the store. */
export interface PendingHost {
  readonly paths: HistoryPaths;
  readonly readOnly: boolean;
  readonly now: () => Date;
  readonly warn: (m: string) => void;
  /** Runs `fn` in the store's write queue. */
  readonly enqueue: (fn: () => Promise<void>) => Promise<void>;
  /** Repairs the torn tail before an append, and learns whether the append tore it. */
  readonly repair: Pick<StoreRepair, 'beforeAppend' | 'appended' | 'appendFailed'>;
  /** Told how many bytes were appended, or that the active file's size is unknown after a failure. */
  readonly rotation: Pick<RotationScheduler, 'rewritten' | 'afterAppend'>;
  /** One record of a written batch, in order, with where its line went in the active file. */
  readonly appended: (record: HistoryRecord, span: AppendSpan) => void;
}

/** Records accepted but not on disk yet, with the health state and retry timer they imply. */
export class PendingWrites {
  /** Records accepted while the disk refused them, oldest first: written before anything newer. */
  private readonly pending: HistoryRecord[] = [];
  private readonly health: StoreHealth;
  private readonly host: PendingHost;

  /** `initial`: the health `open` found; `retryMs`: the first wait before a retry. */
  constructor(host: PendingHost, initial: HistoryHealth | null, retryMs: number) {
    this.host = host;
    this.health = new StoreHealth(initial, { retryMs, warn: (m) => host.warn(m), now: host.now });
  }

  /** Null when the history is written normally; otherwise why not, and how many records wait. */
  get current(): HistoryHealth | null {
    return this.health.current;
  }

  /** Subscribes to health changes; returns an unsubscribe function. */
  onHealth(listener: (h: HistoryHealth | null) => void): () => void {
    return this.health.subscribe(listener);
  }

  /** The records in memory (oldest first). */
  get records(): readonly StoredRecord[] {
    return this.pending;
  }

  /** Whether `key` is a record still in memory. */
  holds(key: string): boolean {
    return this.pending.some((r) => recordKey(r) === key);
  }

  /** Accepts a new record; it is written by the next `flush`. */
  add(record: HistoryRecord): void {
    this.pending.push(record);
  }

  /**
   * Writes the records kept in memory (inside the queue), oldest first, in one append. Never rewrites
   * the file: a torn tail it cannot repair (no room for the quarantine copy) is kept as a line of its
   * own, so a record never glues onto it. On failure the records stay pending and a retry is scheduled.
   */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    if (this.host.readOnly) {
      this.degrade('read-only', 'the history was opened read-only');
      throw new Error('the history was opened read-only');
    }
    const batch = this.pending.slice();
    const lines = batch.map((r) => Buffer.from(`${JSON.stringify(r)}\n`));
    let written: Buffer;
    let start: number;
    try {
      const prefix = await this.host.repair.beforeAppend();
      written = Buffer.concat([Buffer.from(prefix), ...lines]);
      start = await appendDurable(this.host.paths.active, written);
      this.host.repair.appended();
    } catch (err) {
      // appendOrUndo cut a partial write back; if even that failed the next attempt repairs the tail.
      this.host.repair.appendFailed();
      this.host.rotation.rewritten(null);
      if (!isDiskError(err)) {
        // Not a disk state (a bug): do not keep retrying this record.
        this.pending.splice(this.pending.indexOf(batch[batch.length - 1] as HistoryRecord), 1);
        throw err;
      }
      this.degrade(err.code === 'EROFS' ? 'read-only' : 'write-failed', errorText(err));
      this.scheduleRetry();
      throw err;
    }
    this.pending.splice(0, batch.length);
    // Where each line went, so the index can tell this append from another program's (index-apply.ts).
    let end = written.length - lines.reduce((n, l) => n + l.length, 0);
    batch.forEach((record, i) => {
      const lineStart = i === 0 ? start : start + end;
      end += (lines[i] as Buffer).length;
      const tail = written.subarray(Math.max(0, end - TAIL_BYTES), end);
      this.host.appended(record, { start: lineStart, end: start + end, tail });
    });
    this.host.rotation.afterAppend(written.length);
    this.health.recovered();
  }

  /** Tries the pending records again later (backoff doubling up to a minute); a new record tries at once too. */
  scheduleRetry(): void {
    if (this.host.readOnly) return;
    this.health.scheduleRetry(() => {
      void this.host
        .enqueue(async () => {
          if (this.pending.length > 0) await this.flush();
          else if (this.health.current !== null) await this.probeWritable();
        })
        .catch(() => undefined);
    });
  }

  /** Edits a record still held in memory (the disk refused it); it is written with the change. Null when not held. */
  update(key: string, changes: RecordUpdate): HistoryRecord | null {
    const i = this.pending.findIndex((r) => recordKey(r) === key);
    const old = this.pending[i];
    if (old === undefined) return null;
    const record = historyRecordSchema.parse({ ...old, ...changes, edited_at: this.host.now().toISOString() });
    this.pending[i] = record;
    return record;
  }

  /** Drops a record still held in memory; false when not held. */
  remove(key: string): boolean {
    const i = this.pending.findIndex((r) => recordKey(r) === key);
    if (i < 0) return false;
    this.pending.splice(i, 1);
    return true;
  }

  /** Stops retrying (closing) and reports records that were never saved. */
  close(): void {
    this.health.cancelRetry();
    if (this.pending.length > 0) this.host.warn(`history: closing with ${this.pending.length} record(s) not saved (${this.health.current?.reason ?? 'disk refused them'})`);
  }

  private degrade(state: HistoryHealth['state'], reason: string): void {
    this.health.degrade(state, reason, this.pending.length);
  }

  /** With nothing pending, a degraded store checks whether the folder takes writes again. */
  private async probeWritable(): Promise<void> {
    try {
      await appendDurable(this.host.paths.active, '');
      await access(this.host.paths.dataDir, constants.W_OK);
      this.health.recovered();
    } catch {
      this.scheduleRetry();
    }
  }
}
