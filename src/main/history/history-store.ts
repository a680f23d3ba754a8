import { readdir, stat } from 'node:fs/promises';
import {
  historyRecordSchema,
  newRecordId,
  recordKey,
  recordUpdateSchema,
  type HistoryRecord,
  type NewHistoryRecord,
  type RecordUpdate,
  type StoredRecord,
} from '../../shared/history/record.ts';
import { appendDurable, ensureDir, unlinkDurable, writeFileAtomic } from './durable-fs.ts';
import { HotCache, HOT_CACHE_SIZE, selectRecent, type RecentQuery } from './hot-cache.ts';
import { readLines, repairTail, rewriteLines, type HistoryLogger, type TailRepair } from './jsonl-log.ts';
import { parseJsonlLine, type JsonlLine } from './jsonl-reader.ts';
import { archiveMonthOfFileName, historyPaths, type HistoryPaths } from './paths.ts';
import { recoverRotation, rotateIfNeeded, type RotationResult } from './rotation-run.ts';
import { MAX_ACTIVE_RECORDS, ROTATE_MIN_BYTES, needsCountCheck } from './rotation.ts';

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

/** A located record with its file's lines, for rewrites. */
interface Located {
  readonly file: HistoryFileLabel;
  readonly lines: JsonlLine[];
  readonly index: number;
}

/** Where an added record goes (import). */
export interface RecordPlacement {
  readonly record: StoredRecord;
  /** Raw line to write (kept verbatim from the source file when available). */
  readonly text: string;
  readonly target: 'active' | { readonly month: string };
}

/**
 * The JSONL history: the source of truth. One writer per data folder; all writes go through a
 * promise queue, are fsynced before they resolve, and rotate the active file as the seed says.
 */
export class HistoryStore {
  readonly paths: HistoryPaths;
  readonly openReport: OpenReport;
  private readonly maxRecords: number;
  private readonly rotateMinBytes: number;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly warn: HistoryLogger;
  private readonly locateHint: ((key: string) => HistoryFileLabel | undefined) | undefined;
  private readonly hot: HotCache;
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Records in the active file; null until first needed (counted once, then tracked). */
  private activeCount: number | null = null;
  /** False after a failed append (the tail may be torn) until repaired. */
  private tailClean = true;
  /** True after a rotation failed midway: its intent must be recovered before anything else. */
  private rotationPending = false;
  private counter = 0;
  private lastKey: string | null = null;

  private constructor(opts: HistoryStoreOptions, paths: HistoryPaths, report: OpenReport) {
    this.paths = paths;
    this.openReport = report;
    this.maxRecords = opts.maxRecords ?? MAX_ACTIVE_RECORDS;
    this.rotateMinBytes = opts.rotateMinBytes ?? ROTATE_MIN_BYTES;
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.locateHint = opts.locate;
    this.hot = new HotCache(opts.hotCacheSize ?? HOT_CACHE_SIZE);
  }

  /** Opens (creating the folder), finishes an interrupted rotation and repairs a torn last line. */
  static async open(opts: HistoryStoreOptions): Promise<HistoryStore> {
    const paths = historyPaths(opts.dataDir);
    const warn = opts.warn ?? ((m: string) => console.warn(m));
    const nowIso = (opts.now?.() ?? new Date()).toISOString();
    await ensureDir(paths.dataDir);
    const recoveredRotation = await recoverRotation(paths, nowIso, warn);
    const tail = await repairTail(paths.active, paths.quarantine, 'active', nowIso);
    if (tail.kind === 'quarantined') warn(`history: torn last line moved to ${paths.quarantine} (${tail.reason})`);
    return new HistoryStore(opts, paths, { tail, recoveredRotation });
  }

  /** Increases on every change (append, edit, delete, rotation, import): a cheap "anything new?" check. */
  get changeCounter(): number {
    return this.counter;
  }

  /** Key of the last record appended by this process, or null. */
  get lastAppendedKey(): string | null {
    return this.lastKey;
  }

  /** Subscribes to changes; returns an unsubscribe function. */
  onChange(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Appends one record (id and timestamp assigned when absent), fsynced before resolving, then rotates if due. */
  log(input: NewHistoryRecord): Promise<HistoryRecord> {
    return this.enqueue(async () => {
      const now = this.now();
      const record = historyRecordSchema.parse({
        ...input,
        id: input.id ?? newRecordId(now.getTime(), this.random),
        timestamp: input.timestamp ?? now.toISOString(),
      });
      await this.prepareAppend();
      try {
        await appendDurable(this.paths.active, `${JSON.stringify(record)}\n`);
      } catch (err) {
        // A partial write may have left a torn line; repair it before the next append.
        this.tailClean = false;
        this.activeCount = null;
        throw err;
      }
      if (this.activeCount !== null) this.activeCount++;
      this.hot.onAppend(record);
      this.lastKey = recordKey(record);
      this.counter++;
      this.emit({ type: 'appended', record });
      await this.maybeRotate();
      return record;
    });
  }

  /** Changes fields of a record (active or archived) and sets `edited_at`; null when the key is unknown. */
  update(key: string, fields: RecordUpdate): Promise<StoredRecord | null> {
    const changes = recordUpdateSchema.parse(fields);
    return this.enqueue(async () => {
      await this.prepareAppend();
      const found = await this.locate(key);
      if (!found) return null;
      const line = found.lines[found.index];
      if (line?.kind !== 'record') return null;
      // Edit the raw object so fields Tingxie does not know (and WenZi's omissions) survive as they were.
      const raw = JSON.parse(line.text) as Record<string, unknown>;
      const text = JSON.stringify({ ...raw, ...changes, edited_at: this.now().toISOString() });
      const parsed = parseJsonlLine(text);
      if (!parsed.ok) throw new Error(`history: update produced an invalid record (${parsed.reason})`);
      const lines = found.lines.slice();
      lines[found.index] = { kind: 'record', line: line.line, text, record: parsed.record };
      await this.rewrite(found.file, lines);
      if (found.file === 'active') this.hot.onUpdate(key, parsed.record);
      this.counter++;
      this.emit({ type: 'updated', file: found.file, record: parsed.record });
      return parsed.record;
    });
  }

  /** Deletes a record (active or archived); false when the key is unknown. */
  delete(key: string): Promise<boolean> {
    return this.enqueue(async () => {
      await this.prepareAppend();
      const found = await this.locate(key);
      if (!found) return false;
      const lines = found.lines.filter((_, i) => i !== found.index);
      await this.rewrite(found.file, lines);
      this.afterDelete(found.file, [key]);
      return true;
    });
  }

  /** Deletes every record matching `predicate` in every file (retention, delete a day); returns how many. */
  deleteWhere(predicate: (r: StoredRecord) => boolean): Promise<number> {
    return this.enqueue(async () => {
      await this.prepareAppend();
      let total = 0;
      for (const file of await this.listFiles()) {
        const lines = await readLines(this.pathOf(file));
        const keys: string[] = [];
        const kept = lines.filter((l) => {
          if (l.kind !== 'record' || !predicate(l.record)) return true;
          keys.push(recordKey(l.record));
          return false;
        });
        if (keys.length === 0) continue;
        await this.rewrite(file, kept);
        this.afterDelete(file, keys);
        total += keys.length;
      }
      return total;
    });
  }

  /** Deletes all history (active file emptied, archives removed; the quarantine file is kept). */
  clear(): Promise<void> {
    return this.enqueue(async () => {
      const files = await this.listFiles();
      for (const f of files) {
        if (f === 'active') await writeFileAtomic(this.paths.active, '');
        else await unlinkDurable(this.pathOf(f));
      }
      this.activeCount = 0;
      this.hot.invalidate();
      this.counter++;
      this.emit({ type: 'cleared', files });
    });
  }

  /**
   * Adds existing records (import): archive targets are appended to their month files, active targets
   * are merged into the active file in timestamp order, then the seed's rotation check runs.
   */
  addRecords(items: readonly RecordPlacement[]): Promise<number> {
    return this.enqueue(async () => {
      if (items.length === 0) return 0;
      await this.prepareAppend();
      const nowIso = this.now().toISOString();
      const byMonth = new Map<string, string[]>();
      const toActive: RecordPlacement[] = [];
      for (const it of items) {
        if (it.target === 'active') toActive.push(it);
        else byMonth.set(it.target.month, [...(byMonth.get(it.target.month) ?? []), it.text]);
      }
      if (byMonth.size) await ensureDir(this.paths.archivesDir);
      for (const [month, texts] of byMonth) {
        await repairTail(this.paths.archive(month), this.paths.quarantine, month, nowIso);
        await appendDurable(this.paths.archive(month), `${texts.join('\n')}\n`);
      }
      if (toActive.length) {
        const lines = await readLines(this.paths.active);
        const merged = [
          ...lines.filter((l) => l.kind === 'record').map((l) => ({ ts: Date.parse(l.record.timestamp), text: l.text })),
          ...toActive.map((it) => ({ ts: Date.parse(it.record.timestamp), text: it.text })),
        ];
        // Stable sort by time; unparseable timestamps keep their place at the front.
        merged.sort((a, b) => (Number.isNaN(a.ts) ? -Infinity : a.ts) - (Number.isNaN(b.ts) ? -Infinity : b.ts));
        await rewriteLines(this.paths.active, merged.map((m) => m.text), lines, this.paths.quarantine, 'active', nowIso);
        this.activeCount = merged.length;
      }
      this.hot.invalidate();
      this.counter++;
      this.emit({ type: 'added', rows: items.map((it) => ({ record: it.record, file: it.target === 'active' ? 'active' : it.target.month })) });
      await this.maybeRotate();
      return items.length;
    });
  }

  /** Recent preview-confirmed records of a mode (seed rules), oldest first; no disk access once the cache is warm. */
  async getRecent(q: RecentQuery): Promise<StoredRecord[]> {
    return selectRecent(await this.hot.ensure(this.paths.active), q);
  }

  /** Whether the hot cache is loaded. */
  get hotCacheWarm(): boolean {
    return this.hot.warm;
  }

  /** Labels of all history files that exist: `active` first, then archives in name order. */
  async listFiles(): Promise<HistoryFileLabel[]> {
    let names: string[] = [];
    try {
      names = await readdir(this.paths.archivesDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const months = names.map(archiveMonthOfFileName).filter((m): m is string => m !== null);
    return ['active', ...months.sort()];
  }

  /** Path of a file label. */
  pathOf(file: HistoryFileLabel): string {
    return file === 'active' ? this.paths.active : this.paths.archive(file);
  }

  /** All parseable records of one file, in file order (bad lines are reported through `warn`). */
  async readFile(file: HistoryFileLabel): Promise<StoredRecord[]> {
    const lines = await readLines(this.pathOf(file));
    const bad = lines.filter((l) => l.kind === 'bad').length;
    if (bad) this.warn(`history: ${bad} unreadable line(s) skipped in ${file}`);
    return lines.flatMap((l) => (l.kind === 'record' ? [l.record] : []));
  }

  /** Size, mtime and record count of a file, for the index's start-up check. */
  async fileState(file: HistoryFileLabel): Promise<{ size: number; mtimeMs: number; count: number } | undefined> {
    try {
      const st = await stat(this.pathOf(file));
      const count = (await readLines(this.pathOf(file))).filter((l) => l.kind === 'record').length;
      return { size: st.size, mtimeMs: st.mtimeMs, count };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Runs `fn` after every queued write (and is itself serialized), e.g. to read a consistent snapshot. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.enqueue(fn);
  }

  /** Resolves once queued writes are done. */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private emit(e: StoreEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.warn(`history: change listener failed: ${(err as Error).message}`);
      }
    }
  }

  /** Brings the files back to a clean state after an earlier failure in this process. */
  private async prepareAppend(): Promise<void> {
    const nowIso = this.now().toISOString();
    if (this.rotationPending) {
      const r = await recoverRotation(this.paths, nowIso, this.warn);
      this.rotationPending = false;
      this.activeCount = null;
      if (r) this.afterRotation(r);
    }
    if (!this.tailClean) {
      await repairTail(this.paths.active, this.paths.quarantine, 'active', nowIso);
      this.tailClean = true;
    }
  }

  private async maybeRotate(): Promise<void> {
    const size = (await stat(this.paths.active)).size;
    if (!needsCountCheck(size, this.rotateMinBytes)) return;
    if (this.activeCount !== null && this.activeCount <= this.maxRecords) return;
    try {
      const { count, rotation } = await rotateIfNeeded(this.paths, this.maxRecords, this.now().toISOString());
      this.activeCount = count;
      if (rotation) this.afterRotation(rotation);
    } catch (err) {
      // The record itself is durable; the unfinished rotation is completed from its intent next time.
      this.rotationPending = true;
      this.activeCount = null;
      this.warn(`history: rotation failed, will be finished before the next write: ${(err as Error).message}`);
    }
  }

  private afterRotation(rotation: RotationResult): void {
    this.hot.invalidate();
    this.counter++;
    this.emit({ type: 'rotated', rotation });
  }

  private afterDelete(file: HistoryFileLabel, keys: readonly string[]): void {
    if (file === 'active') {
      if (this.activeCount !== null) this.activeCount -= keys.length;
      this.hot.onDelete(new Set(keys));
    }
    this.counter++;
    this.emit({ type: 'deleted', file, keys });
  }

  private async rewrite(file: HistoryFileLabel, lines: readonly JsonlLine[]): Promise<void> {
    const texts = lines.flatMap((l) => (l.kind === 'record' ? [l.text] : []));
    await rewriteLines(this.pathOf(file), texts, lines, this.paths.quarantine, file, this.now().toISOString());
  }

  /** Finds the file holding `key`: the index's hint first (verified), else active, then archives newest first. */
  private async locate(key: string): Promise<Located | null> {
    const files = await this.listFiles();
    const hint = this.locateHint?.(key);
    const order = hint && files.includes(hint) ? [hint, ...files.filter((f) => f !== hint)] : ['active', ...files.slice(1).reverse()];
    for (const file of order) {
      const lines = await readLines(this.pathOf(file));
      const index = lines.findIndex((l) => l.kind === 'record' && recordKey(l.record) === key);
      if (index >= 0) return { file, lines, index };
    }
    return null;
  }
}
