import type { StoredRecord } from '../../shared/history/record.ts';
import type { HistoryLogger, TailRepair } from './jsonl-log.ts';
import type { RotationResult } from './rotation-run.ts';

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
}

/** What changed, so the service can keep the index in step. */
export type StoreEvent =
  | { readonly type: 'appended'; readonly record: StoredRecord }
  | { readonly type: 'updated'; readonly file: HistoryFileLabel; readonly record: StoredRecord }
  | { readonly type: 'deleted'; readonly file: HistoryFileLabel; readonly keys: readonly string[] }
  | { readonly type: 'rotated'; readonly rotation: RotationResult }
  /** Existing records added (import), with the file each went to. */
  | { readonly type: 'added'; readonly rows: readonly { readonly record: StoredRecord; readonly file: HistoryFileLabel }[] }
  /** Everything deleted: these files were emptied or removed. */
  | { readonly type: 'cleared'; readonly files: readonly HistoryFileLabel[] };

/** What `open` found and repaired. */
export interface OpenReport {
  readonly tail: TailRepair;
  readonly recoveredRotation: RotationResult | null;
}

/** Where an added record goes (import). */
export interface RecordPlacement {
  readonly record: StoredRecord;
  /** Raw line to write (kept verbatim from the source file when available). */
  readonly text: string;
  readonly target: 'active' | { readonly month: string };
}
