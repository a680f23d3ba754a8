import { stat } from 'node:fs/promises';
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
import { appendDurable, ensureDir, unlinkDurable, writeFileAtomic } from '../platform/durable-fs.ts';
import { HotCache, HOT_CACHE_SIZE, selectRecent, type RecentQuery } from './hot-cache.ts';
import { readLines, repairTail, rewriteLines, type HistoryLogger } from './jsonl-log.ts';
import { parseJsonlLine, type JsonlLine } from './jsonl-reader.ts';
import { historyPaths, type HistoryPaths } from './paths.ts';
import { MAX_ACTIVE_RECORDS, ROTATE_MIN_BYTES, ROTATION_MAX_DEFER_MS, ROTATION_QUIET_MS } from './rotation.ts';
import { recoverRotation, type RotationResult } from './rotation-run.ts';
import { RotationScheduler } from './rotation-scheduler.ts';
import { listFileLabels, locateKey, mergeIntoActive, pathOfLabel } from './store-files.ts';
import type { HistoryFileLabel, HistoryStoreOptions, OpenReport, RecordPlacement, StoreEvent } from './store-types.ts';

export type { HistoryFileLabel, HistoryStoreOptions, OpenReport, RecordPlacement, StoreEvent } from './store-types.ts';

/** Returned by a queued rewrite that found a rotation running: retried once it is idle. */
const RETRY = Symbol('retry');

/**
 * The JSONL history: the source of truth. One writer per data folder; all writes go through a
 * promise queue and are fsynced before they resolve. The seed's rotation runs after `log()` in the
 * background (RotationScheduler), so `log()` never pays for rewriting the active file; edits, deletes
 * and imports wait until no rotation is running, so they never rewrite a file a rotation is working on.
 */
export class HistoryStore {
  readonly paths: HistoryPaths;
  readonly openReport: OpenReport;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly warn: HistoryLogger;
  private readonly locateHint: ((key: string) => HistoryFileLabel | undefined) | undefined;
  private readonly hot: HotCache;
  private readonly rotation: RotationScheduler;
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  /** False after a failed append (the tail may be torn) until repaired. */
  private tailClean = true;
  /** True after a rotation failed midway: its intent must be recovered before anything else. */
  private rotationPending = false;
  private counter = 0;
  private lastKey: string | null = null;

  private constructor(opts: HistoryStoreOptions, paths: HistoryPaths, report: OpenReport) {
    this.paths = paths;
    this.openReport = report;
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.locateHint = opts.locate;
    this.hot = new HotCache(opts.hotCacheSize ?? HOT_CACHE_SIZE);
    this.rotation = new RotationScheduler({
      paths,
      maxRecords: opts.maxRecords ?? MAX_ACTIVE_RECORDS,
      rotateMinBytes: opts.rotateMinBytes ?? ROTATE_MIN_BYTES,
      quietMs: opts.rotationQuietMs ?? ROTATION_QUIET_MS,
      maxDeferMs: opts.rotationMaxDeferMs ?? ROTATION_MAX_DEFER_MS,
      nowIso: () => this.now().toISOString(),
      warn: (m) => this.warn(m),
      locked: (fn) => this.enqueue(fn),
      repair: () => this.prepareAppend(),
      rotated: (r) => this.afterRotation(r),
      failed: () => {
        this.rotationPending = true;
      },
    });
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

  /** Rotations this store has committed since it was opened. */
  get rotationsCompleted(): number {
    return this.rotation.completed;
  }

  /** Subscribes to changes; returns an unsubscribe function. */
  onChange(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends one record (id and timestamp assigned when absent); resolves once it is fsynced and every
   * listener (the index) has seen it. The seed's rotation check then runs in the background.
   */
  log(input: NewHistoryRecord): Promise<HistoryRecord> {
    return this.enqueue(async () => {
      const now = this.now();
      const record = historyRecordSchema.parse({
        ...input,
        id: input.id ?? newRecordId(now.getTime(), this.random),
        timestamp: input.timestamp ?? now.toISOString(),
      });
      await this.prepareAppend();
      const line = `${JSON.stringify(record)}\n`;
      try {
        await appendDurable(this.paths.active, line);
      } catch (err) {
        // A partial write may have left a torn line; repair it before the next append.
        this.tailClean = false;
        this.rotation.rewritten(null);
        throw err;
      }
      this.hot.onAppend(record);
      this.lastKey = recordKey(record);
      this.counter++;
      this.emit({ type: 'appended', record });
      this.rotation.afterAppend(Buffer.byteLength(line));
      return record;
    });
  }

  /** Changes fields of a record (active or archived) and sets `edited_at`; null when the key is unknown. */
  update(key: string, fields: RecordUpdate): Promise<StoredRecord | null> {
    const changes = recordUpdateSchema.parse(fields);
    return this.enqueueRewrite(async () => {
      const found = await locateKey(this.paths, key, this.locateHint?.(key));
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
    return this.enqueueRewrite(async () => {
      const found = await locateKey(this.paths, key, this.locateHint?.(key));
      if (!found) return false;
      await this.rewrite(found.file, found.lines.filter((_, i) => i !== found.index));
      this.afterDelete(found.file, [key]);
      return true;
    });
  }

  /** Deletes every record matching `predicate` in every file (retention, delete a day); returns how many. */
  deleteWhere(predicate: (r: StoredRecord) => boolean): Promise<number> {
    return this.enqueueRewrite(async () => {
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
    return this.enqueueRewrite(async () => {
      const files = await this.listFiles();
      for (const f of files) {
        if (f === 'active') await writeFileAtomic(this.paths.active, '');
        else await unlinkDurable(this.pathOf(f));
      }
      this.rotation.rewritten(0);
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
    return this.enqueueRewrite(async () => {
      if (items.length === 0) return 0;
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
      if (toActive.length) this.rotation.rewritten(await mergeIntoActive(this.paths, toActive, nowIso));
      this.hot.invalidate();
      this.counter++;
      this.emit({ type: 'added', rows: items.map((it) => ({ record: it.record, file: it.target === 'active' ? 'active' : it.target.month })) });
      this.rotation.check();
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
  listFiles(): Promise<HistoryFileLabel[]> {
    return listFileLabels(this.paths);
  }

  /** Path of a file label. */
  pathOf(file: HistoryFileLabel): string {
    return pathOfLabel(this.paths, file);
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

  /** Runs the seed's rotation check now (as after a `log()`) and resolves when no rotation is running. */
  async rotateNow(): Promise<void> {
    await this.enqueue(async () => this.rotation.check());
    await this.settled();
  }

  /** Resolves once queued writes and any background rotation (including coalesced re-checks) are done. */
  async settled(): Promise<void> {
    do {
      await this.queue.catch(() => undefined);
      await this.rotation.idle();
    } while (this.rotation.running);
    await this.queue.catch(() => undefined);
  }

  /** Resolves once queued writes and background rotations are done. */
  close(): Promise<void> {
    return this.settled();
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Queues a rewrite of whole files. It must not overlap a background rotation (which appends to archives
   * and copies the active file), so it runs only when none is in flight, retrying after it ends.
   */
  private async enqueueRewrite<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      await this.rotation.idle();
      const r = await this.enqueue(async () => {
        if (this.rotation.running) return RETRY;
        await this.prepareAppend();
        return { value: await fn() };
      });
      if (r !== RETRY) return r.value;
    }
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
      this.rotation.rewritten(null);
      if (r) this.afterRotation(r);
    }
    if (!this.tailClean) {
      await repairTail(this.paths.active, this.paths.quarantine, 'active', nowIso);
      this.tailClean = true;
    }
  }

  private afterRotation(rotation: RotationResult): void {
    this.hot.invalidate();
    this.counter++;
    this.emit({ type: 'rotated', rotation });
  }

  private afterDelete(file: HistoryFileLabel, keys: readonly string[]): void {
    if (file === 'active') {
      this.rotation.rewritten(null);
      this.hot.onDelete(new Set(keys));
    }
    this.counter++;
    this.emit({ type: 'deleted', file, keys });
  }

  private async rewrite(file: HistoryFileLabel, lines: readonly JsonlLine[]): Promise<void> {
    const texts = lines.flatMap((l) => (l.kind === 'record' ? [l.text] : []));
    await rewriteLines(this.pathOf(file), texts, lines, this.paths.quarantine, file, this.now().toISOString());
    if (file === 'active') this.rotation.rewritten(texts.length);
  }
}
