import type { StoredRecord } from '../../../shared/history/record.ts';
import type { HistoryLogger, TailRepair } from './jsonl-log.ts';
import type { RotationResult } from '../rotation/rotation-run.ts';

/** A history file by label: `active`, a month `YYYY-MM`, or `unknown` (as the index's `file` column). */
export type HistoryFileLabel = string;

/** Options of `HistoryStore.open`; thresholds are injectable for tests, defaults are the seed's. */
export interface HistoryStoreOptions {
  readonly dataDir: string;
  /** Seed: 20,000. */
  readonly maxRecords?: number;
  /** Seed: 4 MB. */
  readonly rotateMinBytes?: number;
  /** Seed: 200. */
  readonly hotCacheSize?: number;
  /** Quiet time (ms) before a due rotation starts in the background; 0 = right after the append. Default 1000. */
  readonly rotationQuietMs?: number;
  /** Longest a due rotation waits for quiet (ms). Default 15,000. */
  readonly rotationMaxDeferMs?: number;
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly warn?: HistoryLogger;
  /** Where the index believes a key lives; only a hint (verified, then falls back to scanning). */
  readonly locate?: (key: string) => HistoryFileLabel | undefined;
  /** Runs inside the write queue before any rewrite of a file (edit, delete, import, rotation): the index catches up with other programs' lines first. */
  readonly beforeRewrite?: () => Promise<unknown>;
  /** Open without writing anything in the folder (the CLI on a read-only folder); writes are kept in memory. */
  readonly readOnly?: boolean;
  /** First wait (ms) before a failed rotation is tried again; doubles up to 30 min. Default 30 s. */
  readonly rotationRetryMs?: number;
  /** First wait (ms) before records kept in memory are written again; doubles up to 60 s. Default 2 s. */
  readonly writeRetryMs?: number;
}

/** What changed, so the service can keep the index in step. */
export type StoreEvent =
  /**
   * `span`: where this process wrote the record's line in the active file (byte offsets, `tail` = the
   * last ≤ TAIL_BYTES bytes written up to `end`), so the index can tell its own append from another writer's.
   */
  | { readonly type: 'appended'; readonly record: StoredRecord; readonly span?: AppendSpan }
  | { readonly type: 'updated'; readonly file: HistoryFileLabel; readonly record: StoredRecord }
  | { readonly type: 'deleted'; readonly file: HistoryFileLabel; readonly keys: readonly string[] }
  | { readonly type: 'rotated'; readonly rotation: RotationResult }
  /** Existing records added (import), with the file each went to. */
  | { readonly type: 'added'; readonly rows: readonly { readonly record: StoredRecord; readonly file: HistoryFileLabel }[] }
  /** Everything deleted: these files were emptied or removed. */
  | { readonly type: 'cleared'; readonly files: readonly HistoryFileLabel[] };

/** Byte range of one appended line in the active file (see StoreEvent 'appended'). */
export interface AppendSpan {
  readonly start: number;
  readonly end: number;
  readonly tail: Buffer;
}

/** What `open` found and repaired. */
export interface OpenReport {
  readonly tail: TailRepair;
  readonly recoveredRotation: RotationResult | null;
  /** Not null when the folder could not be written at open (read-only, full): the store runs degraded. */
  readonly health: HistoryHealth | null;
  /** Temp files of crashed saves removed at open. */
  readonly staleTempFiles: number;
  /** Lines of the active file too long to read, set aside in the quarantine file at open. */
  readonly oversizedSetAside: number;
}

/** Where an added record goes (import). */
export interface RecordPlacement {
  readonly record: StoredRecord;
  /** Raw line to write (kept verbatim from the source file when available). */
  readonly text: string;
  readonly target: 'active' | { readonly month: string };
}

/**
 * Why the history cannot be written right now: the folder is read-only, or writes fail (disk full, I/O
 * error). Reading still works; new records are kept in memory (`pending`) and written, in order, as
 * soon as the disk accepts them again (retried with backoff and on every new record).
 */
export interface HistoryHealth {
  readonly state: 'read-only' | 'write-failed';
  /** The OS error, e.g. `ENOSPC: no space left on device`. */
  readonly reason: string;
  /** Records accepted but not on disk yet. */
  readonly pending: number;
  /** When the problem was first seen (ISO). */
  readonly since: string;
}

/**
 * Thrown by `log()` when the record could not be written: it is kept in memory and written later
 * (see HistoryHealth), so the caller has not lost it, but it is not on disk yet.
 */
export class HistoryPendingError extends Error {
  readonly record: StoredRecord;
  constructor(record: StoredRecord, cause: unknown) {
    super(`history record kept in memory until the disk accepts it: ${errorText(cause)}`, { cause });
    this.name = 'HistoryPendingError';
    this.record = record;
  }
}

/** An OS error (ENOSPC, EROFS, EIO, EACCES…): a disk state, not a bug. */
export function isDiskError(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

/** `CODE: message` of an error, for logs and notices. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.startsWith(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
