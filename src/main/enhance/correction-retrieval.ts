import { recordKey, type StoredRecord } from '../../shared/history/record.ts';
import type { CorrectedRow } from '../../shared/history/corrected-row.ts';
import { CorrectionTable, DEFAULT_TABLE_LIMITS, type CorrectionTableLimits } from './correction-table.ts';

/**
 * Retrieval of *older* confirmed corrections (beyond the recent history window), issue item 6a: every
 * record the user corrected in the preview is reduced to its wrong fragments (`平平` in `[平平→萍萍]`),
 * and a dictation whose ASR text contains one of them gets the newest such record as an extra line in
 * the dynamic tail of the prompt, where it cannot disturb the cached prefix.
 *
 * The table (correction-table.ts) is filled once by a pass over the history index — every corrected
 * record, archives included, newest first, in batches that yield to the event loop, bounded by the
 * table's record cap and `maxScannedRows` — and then kept in step from the history store's change
 * events (append, edit, delete, rotation, import, clear) without re-reading anything. When the index is
 * swapped (a rebuild), one new pass runs and records it no longer holds are swept out.
 */

/** What the retriever reads from the index (HistoryIndex satisfies it). */
export interface CorrectionIndex {
  correctedRows(q: { readonly beforeRid?: number; readonly limit: number }): CorrectedRow[];
  correctedRowsByKeys(keys: readonly string[]): CorrectedRow[];
}

/**
 * The history changes the retriever reads: the fields it uses of each StoreEvent
 * (src/main/history/store/store-types.ts), which satisfies it. A port, so enhance never imports history.
 */
export type HistoryChange =
  | { readonly type: 'appended'; readonly record: StoredRecord }
  | { readonly type: 'updated'; readonly file: string; readonly record: StoredRecord }
  | { readonly type: 'deleted'; readonly keys: readonly string[] }
  | { readonly type: 'rotated'; readonly rotation: { readonly moves: readonly { readonly key: string; readonly month: string }[] } }
  | { readonly type: 'added'; readonly rows: readonly { readonly record: StoredRecord; readonly file: string }[] }
  | { readonly type: 'cleared'; readonly files: readonly string[] };

/** What the retriever needs from the history (HistoryService satisfies it). */
export interface CorrectionHistory {
  readonly indexReady: Promise<void>;
  readonly indexOrNull: CorrectionIndex | null;
  readonly indexStale: boolean;
  readonly store: { onChange(listener: (e: HistoryChange) => void): () => void };
}

/** Options of the retriever (tests shrink them). */
export interface CorrectionRetrieverOptions {
  readonly limits?: CorrectionTableLimits;
  /** Rows read per batch before yielding to the event loop (default 500). */
  readonly batchSize?: number;
  /** Corrected rows a pass reads at most (default 200,000). */
  readonly maxScannedRows?: number;
  readonly warn?: (message: string) => void;
}

/** Lines retrieved per request at most. */
export const MAX_RETRIEVED = 3;

/** State of the table for diagnostics and tests. */
export interface RetrievalStats {
  readonly state: 'idle' | 'loading' | 'ready' | 'unavailable';
  readonly records: number;
  readonly pairs: number;
  readonly passes: number;
  /** Of the last complete pass. */
  readonly lastPassRows: number;
  readonly lastPassMs: number;
}

/** The seed's rule (preview-confirmed, not cancelled or failed), for index rows and stored records alike. */
function usable(r: { readonly preview_enabled: boolean; readonly outcome?: string | null }): boolean {
  return r.preview_enabled && r.outcome !== 'cancelled' && r.outcome !== 'failed';
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The index-backed, event-maintained correction table. */
export class CorrectionRetriever {
  private readonly history: CorrectionHistory;
  private readonly table: CorrectionTable;
  private readonly batchSize: number;
  private readonly maxScannedRows: number;
  private readonly warn: (message: string) => void;
  private unsubscribe: (() => void) | null = null;
  private pass: Promise<void> | null = null;
  /** The index the table was last filled from (a different one means: pass again). */
  private boundIndex: CorrectionIndex | null = null;
  private gen = 0;
  private state: RetrievalStats['state'] = 'idle';
  private passes = 0;
  private lastPassRows = 0;
  private lastPassMs = 0;
  private closed = false;

  /** A retriever over the history; nothing happens until `start()`. */
  constructor(history: CorrectionHistory, opts: CorrectionRetrieverOptions = {}) {
    this.history = history;
    this.table = new CorrectionTable(opts.limits ?? DEFAULT_TABLE_LIMITS);
    this.batchSize = opts.batchSize ?? 500;
    this.maxScannedRows = opts.maxScannedRows ?? 200_000;
    this.warn = opts.warn ?? (() => {});
  }

  /** Subscribes to history changes and starts the first pass once the index is ready (idempotent). */
  start(): void {
    if (this.unsubscribe || this.closed) return;
    this.unsubscribe = this.history.store.onChange((e) => this.apply(e));
    this.state = 'loading';
    this.pass = this.history.indexReady
      .catch(() => undefined)
      .then(() => this.runPass())
      .finally(() => {
        this.pass = null;
      });
  }

  /** Resolves when the running pass (if any) has finished; starts the retriever if needed. */
  async whenLoaded(): Promise<void> {
    this.start();
    this.refresh();
    await this.pass;
  }

  /** Cheap check before a build: passes again when the index was swapped, repairs examples when possible. */
  refresh(): void {
    if (!this.unsubscribe) this.start();
    if (this.pass || this.closed) return;
    const index = this.history.indexOrNull;
    if (index === null || this.history.indexStale) return;
    if (index !== this.boundIndex) {
      this.pass = this.runPass().finally(() => {
        this.pass = null;
      });
      return;
    }
    this.repair(index);
  }

  /**
   * Up to `max` lines whose wrong fragment occurs in the ASR text (see CorrectionTable.lookup), skipping
   * lines already shown; with `shareProperNouns`, proper-noun corrections of other modes count too.
   */
  retrieve(asrText: string, mode: string, exclude: ReadonlySet<string>, max = MAX_RETRIEVED, shareProperNouns = false): string[] {
    return this.table.lookup(asrText, mode, exclude, max, shareProperNouns);
  }

  /** Counters for diagnostics and tests. */
  stats(): RetrievalStats {
    return { state: this.state, records: this.table.recordCount, pairs: this.table.pairCount, passes: this.passes, lastPassRows: this.lastPassRows, lastPassMs: this.lastPassMs };
  }

  /** Stops listening (a running pass stops at its next batch). */
  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async runPass(): Promise<void> {
    const index = this.history.indexOrNull;
    if (this.closed || index === null || this.history.indexStale) {
      // No index (missing, rebuilding, failed): retrieval stays as it is; `refresh` retries once one is there.
      if (this.boundIndex === null) this.state = 'unavailable';
      return;
    }
    const gen = ++this.gen;
    const started = performance.now();
    this.state = 'loading';
    let cursor: number | undefined;
    let tracked = 0;
    let read = 0;
    try {
      for (;;) {
        if (this.closed || this.history.indexOrNull !== index || this.history.indexStale) {
          this.state = this.boundIndex === null ? 'unavailable' : 'ready';
          return; // swapped or closed mid-pass: the next refresh starts over on the new index
        }
        const rows = index.correctedRows({ ...(cursor !== undefined ? { beforeRid: cursor } : {}), limit: this.batchSize });
        for (const row of rows) {
          if (!usable(row)) {
            this.table.remove(row.key);
            continue;
          }
          if (this.table.put({ key: row.key, ms: Date.parse(row.timestamp) || 0, file: row.file, asr_text: row.asr_text, final_text: row.final_text, enhance_mode: row.enhance_mode }, gen)) tracked++;
        }
        read += rows.length;
        const last = rows[rows.length - 1];
        if (!last || rows.length < this.batchSize || tracked >= this.table.maxRecords || read >= this.maxScannedRows) break;
        cursor = last.rid;
        await yieldToLoop();
      }
      this.table.sweep(gen);
      this.boundIndex = index;
      this.repair(index);
      this.passes++;
      this.lastPassRows = read;
      this.lastPassMs = performance.now() - started;
      this.state = 'ready';
    } catch (err) {
      this.boundIndex = index; // do not hammer a failing index: the next swap retries
      this.state = 'unavailable';
      this.warn(`correction retrieval unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** One store change, applied to the table (the service has already applied it to the index). */
  private apply(e: HistoryChange): void {
    try {
      switch (e.type) {
        case 'appended':
          this.putRecord(e.record, 'active');
          break;
        case 'updated':
          this.putRecord(e.record, e.file);
          break;
        case 'deleted':
          for (const k of e.keys) this.table.remove(k);
          break;
        case 'rotated': {
          const byMonth = new Map<string, string[]>();
          for (const m of e.rotation.moves) byMonth.set(m.month, [...(byMonth.get(m.month) ?? []), m.key]);
          for (const [month, keys] of byMonth) this.table.move(keys, month);
          break;
        }
        case 'added':
          for (const r of e.rows) this.putRecord(r.record, r.file);
          break;
        case 'cleared':
          this.table.removeFiles(new Set(e.files));
          break;
        default: {
          const never: never = e;
          throw new Error(`unknown store event ${JSON.stringify(never)}`);
        }
      }
      const index = this.history.indexOrNull;
      if (index !== null && !this.history.indexStale) this.repair(index);
    } catch (err) {
      this.warn(`correction retrieval: could not apply a history change: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private putRecord(r: StoredRecord, file: string): void {
    const key = recordKey(r);
    if (!r.user_corrected || !usable(r)) {
      this.table.remove(key);
      return;
    }
    this.table.put({ key, ms: Date.parse(r.timestamp) || 0, file, asr_text: r.asr_text, final_text: r.final_text, enhance_mode: r.enhance_mode }, this.gen);
  }

  /** Fetches the lines of pairs whose example record went away (their newest remaining record). */
  private repair(index: CorrectionIndex): void {
    const keys = this.table.pendingExamples();
    if (keys.length === 0) return;
    try {
      for (const row of index.correctedRowsByKeys(keys)) this.table.setExampleLine(row.key, row.asr_text, row.final_text);
    } catch (err) {
      this.warn(`correction retrieval: could not read an example: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
