import { access, constants, stat } from 'node:fs/promises';
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
import { TAIL_BYTES } from './index-follow.ts';
import { endsWithoutNewline, readLines, repairTail, rewriteLines, type HistoryLogger } from './jsonl-log.ts';
import { parseJsonlLine, type JsonlLine } from './jsonl-reader.ts';
import type { HistoryPaths } from './paths.ts';
import { MAX_ACTIVE_RECORDS, ROTATE_MIN_BYTES, ROTATION_MAX_DEFER_MS, ROTATION_QUIET_MS } from './rotation.ts';
import { recoverRotation, type RotationResult } from './rotation-run.ts';
import { RotationScheduler } from './rotation-scheduler.ts';
import { listFileLabels, locateKey, mergeIntoActive, pathOfLabel, setAsideOversized } from './store-files.ts';
import { StoreHealth } from './store-health.ts';
import { openStoreFiles } from './store-open.ts';
import {
  errorText,
  HistoryPendingError,
  isDiskError,
  type HistoryFileLabel,
  type HistoryHealth,
  type HistoryStoreOptions,
  type OpenReport,
  type RecordPlacement,
  type StoreEvent,
} from './store-types.ts';

export type { HistoryFileLabel, HistoryHealth, HistoryStoreOptions, OpenReport, RecordPlacement, StoreEvent } from './store-types.ts';
export { HistoryPendingError } from './store-types.ts';


/** Returned by a queued rewrite that found a rotation running: retried once it is idle. */
const RETRY = Symbol('retry');

/**
 * The JSONL history: the source of truth. One writer per data folder; all writes go through a
 * promise queue and are fsynced before they resolve. The seed's rotation runs after `log()` in the
 * background (RotationScheduler), so `log()` never pays for rewriting the active file — not even after
 * a rotation failed (disk full): that is retried later, with backoff, by the scheduler. Edits, deletes
 * and imports wait until no rotation is running, so they never rewrite a file a rotation is working on.
 * When the disk refuses a record (full, read-only) it is kept in memory and written as soon as the disk
 * accepts it again; `health` says so, and `open` never throws for the state of the disk.
 */
export class HistoryStore {
  readonly paths: HistoryPaths;
  readonly openReport: OpenReport;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly warn: HistoryLogger;
  private readonly locateHint: ((key: string) => HistoryFileLabel | undefined) | undefined;
  private readonly beforeRewrite: (() => Promise<unknown>) | undefined;
  private readonly hot: HotCache;
  private readonly rotation: RotationScheduler;
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  /** False after a failed append (the tail may be torn) until repaired. */
  private tailClean: boolean;
  /** True after a rotation failed midway: its intent must be recovered before a rewrite (appends need not wait). */
  private rotationPending: boolean;
  private counter = 0;
  private lastKey: string | null = null;
  private readonly readOnly: boolean;
  /** Records accepted while the disk refused them, oldest first: written before anything newer. */
  private readonly pending: HistoryRecord[] = [];
  private readonly healthState: StoreHealth;
  /** Records the active file keeps (the seed's 20,000 unless a test shrinks it). */
  readonly maxActiveRecords: number;

  private constructor(opts: HistoryStoreOptions, paths: HistoryPaths, report: OpenReport, state: { tailClean: boolean; rotationPending: boolean }) {
    this.paths = paths;
    this.openReport = report;
    this.readOnly = opts.readOnly === true;
    this.tailClean = state.tailClean;
    this.rotationPending = state.rotationPending;
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.locateHint = opts.locate;
    this.beforeRewrite = opts.beforeRewrite;
    this.hot = new HotCache(opts.hotCacheSize ?? HOT_CACHE_SIZE);
    this.maxActiveRecords = opts.maxRecords ?? MAX_ACTIVE_RECORDS;
    this.healthState = new StoreHealth(report.health, { retryMs: opts.writeRetryMs ?? 2000, warn: (m) => this.warn(m), now: this.now });
    this.rotation = new RotationScheduler({
      paths,
      maxRecords: this.maxActiveRecords,
      rotateMinBytes: opts.rotateMinBytes ?? ROTATE_MIN_BYTES,
      quietMs: opts.rotationQuietMs ?? ROTATION_QUIET_MS,
      maxDeferMs: opts.rotationMaxDeferMs ?? ROTATION_MAX_DEFER_MS,
      retryMs: opts.rotationRetryMs ?? 30_000,
      nowIso: () => this.now().toISOString(),
      warn: (m) => this.warn(m),
      locked: (fn) => this.enqueue(fn),
      repair: () => this.prepareRewrite(),
      rotated: (r) => this.afterRotation(r),
      failed: () => {
        this.rotationPending = true;
      },
    });
  }

  /**
   * Opens (creating the folder), finishes an interrupted rotation, repairs a torn last line, sets aside
   * lines too long to read and removes temp files of crashed saves. Never throws for the state of the
   * disk: a read-only or full folder opens degraded (see `health`), and what could not be done is
   * retried later (the rotation by the scheduler, the tail before the next append).
   */
  static async open(opts: HistoryStoreOptions): Promise<HistoryStore> {
    const opened = await openStoreFiles(opts);
    const store = new HistoryStore(opts, opened.paths, opened.report, opened.state);
    // An unfinished rotation is completed in the background, never on the append path.
    if (opened.state.rotationPending && !store.readOnly) store.rotation.failedEarlier();
    if (opened.report.health) store.scheduleWriteRetry();
    return store;
  }

  /** Null when the history is written normally; otherwise why not, and how many records wait in memory. */
  get health(): HistoryHealth | null {
    return this.healthState.current;
  }

  /** Subscribes to health changes (degraded ↔ healthy); returns an unsubscribe function. */
  onHealth(listener: (h: HistoryHealth | null) => void): () => void {
    return this.healthState.subscribe(listener);
  }

  /** Records kept in memory because the disk refused them (oldest first). */
  get pendingRecords(): readonly StoredRecord[] {
    return this.pending;
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
   * listener (the index) has seen it. The seed's rotation check then runs in the background. When the
   * disk refuses it (full, read-only), it rejects with HistoryPendingError: the record is kept in memory
   * and written, before any newer one, as soon as the disk accepts writes again.
   */
  log(input: NewHistoryRecord): Promise<HistoryRecord> {
    return this.enqueue(async () => {
      const now = this.now();
      const record = historyRecordSchema.parse({
        ...input,
        id: input.id ?? newRecordId(now.getTime(), this.random),
        timestamp: input.timestamp ?? now.toISOString(),
      });
      this.pending.push(record);
      this.hot.onAppend(record);
      try {
        await this.flushPending();
      } catch (err) {
        throw new HistoryPendingError(record, err);
      }
      return record;
    });
  }

  /**
   * Writes the records kept in memory (inside the queue), oldest first, in one append. Never rewrites
   * the file: a torn tail it cannot repair (no room for the quarantine copy) is kept as a line of its
   * own, so a record never glues onto it. On failure the records stay pending and a retry is scheduled.
   */
  private async flushPending(): Promise<void> {
    if (this.pending.length === 0) return;
    if (this.readOnly) {
      this.degrade('read-only', 'the history was opened read-only');
      throw new Error('the history was opened read-only');
    }
    const batch = this.pending.slice();
    const lines = batch.map((r) => Buffer.from(`${JSON.stringify(r)}\n`));
    let written: Buffer;
    let start: number;
    try {
      const prefix = await this.prepareAppend();
      written = Buffer.concat([Buffer.from(prefix), ...lines]);
      start = await appendDurable(this.paths.active, written);
      this.tailClean = true;
    } catch (err) {
      // appendOrUndo cut a partial write back; if even that failed the next attempt repairs the tail.
      this.tailClean = false;
      this.rotation.rewritten(null);
      if (!isDiskError(err)) {
        // Not a disk state (a bug): do not keep retrying this record.
        this.pending.splice(this.pending.indexOf(batch[batch.length - 1] as HistoryRecord), 1);
        throw err;
      }
      this.degrade(err.code === 'EROFS' ? 'read-only' : 'write-failed', errorText(err));
      this.scheduleWriteRetry();
      throw err;
    }
    this.pending.splice(0, batch.length);
    // Where each line went, so the index can tell this append from another program's (index-apply.ts).
    let end = written.length - lines.reduce((n, l) => n + l.length, 0);
    batch.forEach((record, i) => {
      const lineStart = i === 0 ? start : start + end;
      end += (lines[i] as Buffer).length;
      const tail = written.subarray(Math.max(0, end - TAIL_BYTES), end);
      this.lastKey = recordKey(record);
      this.counter++;
      this.emit({ type: 'appended', record, span: { start: lineStart, end: start + end, tail } });
    });
    this.rotation.afterAppend(written.length);
    this.recovered();
  }

  /**
   * Before an append: repair a torn tail when possible (quarantine + truncate). When that fails (the
   * quarantine copy needs room), returns '\n' if the file does not end with one, so the torn text stays
   * a line of its own (set aside by the next rewrite) instead of gluing onto the new record.
   */
  private async prepareAppend(): Promise<string> {
    if (this.tailClean) return '';
    try {
      await repairTail(this.paths.active, this.paths.quarantine, 'active', this.now().toISOString());
      this.tailClean = true;
      return '';
    } catch {
      return (await endsWithoutNewline(this.paths.active)) ? '\n' : '';
    }
  }

  private degrade(state: HistoryHealth['state'], reason: string): void {
    this.healthState.degrade(state, reason, this.pending.length);
  }

  private recovered(): void {
    this.healthState.recovered();
  }

  /** Tries the pending records again later (backoff doubling up to a minute); a new record tries at once too. */
  private scheduleWriteRetry(): void {
    if (this.readOnly) return;
    this.healthState.scheduleRetry(() => {
      void this.enqueue(async () => {
        if (this.pending.length > 0) await this.flushPending();
        else if (this.healthState.current !== null) await this.probeWritable();
      }).catch(() => undefined);
    });
  }

  /** With nothing pending, a degraded store checks whether the folder takes writes again. */
  private async probeWritable(): Promise<void> {
    try {
      await appendDurable(this.paths.active, '');
      await access(this.paths.dataDir, constants.W_OK);
      this.recovered();
    } catch {
      this.scheduleWriteRetry();
    }
  }

  /** Changes fields of a record (active or archived) and sets `edited_at`; null when the key is unknown. */
  update(key: string, fields: RecordUpdate): Promise<StoredRecord | null> {
    const changes = recordUpdateSchema.parse(fields);
    const held = this.pending.findIndex((r) => recordKey(r) === key);
    if (held >= 0) return this.enqueue(async () => this.updatePending(key, changes));
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

  /** Edits a record still held in memory (the disk refused it); it is written with the change. */
  private updatePending(key: string, changes: RecordUpdate): StoredRecord | null {
    const i = this.pending.findIndex((r) => recordKey(r) === key);
    const old = this.pending[i];
    if (old === undefined) return null;
    const record = historyRecordSchema.parse({ ...old, ...changes, edited_at: this.now().toISOString() });
    this.pending[i] = record;
    this.hot.onUpdate(key, record);
    this.counter++;
    return record;
  }

  /** Deletes a record (active or archived); false when the key is unknown. */
  delete(key: string): Promise<boolean> {
    if (this.pending.some((r) => recordKey(r) === key)) {
      return this.enqueue(async () => {
        const i = this.pending.findIndex((r) => recordKey(r) === key);
        if (i < 0) return false;
        this.pending.splice(i, 1);
        this.hot.onDelete(new Set([key]));
        this.counter++;
        return true;
      });
    }
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
   * are merged into the active file in timestamp order (the file is created when missing), then the
   * count check runs without the 4 MB guard, so the active file ends up with the newest `maxActiveRecords`.
   */
  addRecords(items: readonly RecordPlacement[]): Promise<number> {
    return this.enqueueRewrite(async () => {
      // A fresh data folder gets its active file even when everything imported was archived.
      await appendDurable(this.paths.active, '');
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
      this.rotation.checkForced();
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

  /** Resolves once queued writes and background rotations are done; pending retries stop (records still in memory are reported). */
  async close(): Promise<void> {
    await this.settled();
    this.rotation.dispose();
    this.healthState.cancelRetry();
    if (this.pending.length > 0) this.warn(`history: closing with ${this.pending.length} record(s) not saved (${this.healthState.current?.reason ?? 'disk refused them'})`);
  }

  /**
   * Sets aside (in the quarantine file) the lines of `file` too long to read, rewriting it without them;
   * returns how many. Queued like an edit.
   */
  setAsideOversized(file: HistoryFileLabel): Promise<number> {
    return this.enqueueRewrite(async () => {
      const n = await setAsideOversized(this.paths, file, this.now().toISOString());
      if (n > 0) {
        if (file === 'active') this.rotation.rewritten(null);
        this.counter++;
      }
      return n;
    });
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
        await this.prepareRewrite();
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

  /**
   * Before a rewrite (edit, delete, import, rotation): finishes an interrupted rotation and repairs a
   * torn tail. A rewrite must not run over a half-done rotation; an append need not wait for this.
   */
  private async prepareRewrite(): Promise<void> {
    if (this.readOnly) throw new Error('the history was opened read-only');
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
    await this.beforeRewrite?.();
  }

  /** Runs `fn` in the write queue once no rotation is running (the index following other programs' edits). */
  async whenIdle<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      await this.rotation.idle();
      const r = await this.enqueue(async () => (this.rotation.running ? RETRY : { value: await fn() }));
      if (r !== RETRY) return r.value;
    }
  }

  /** Another program changed these files (seen by the index's follower): caches forget what they held. */
  externalChange(files: readonly HistoryFileLabel[]): void {
    if (files.length === 0) return;
    if (files.includes('active')) {
      this.hot.invalidate();
      this.rotation.rewritten(null);
    }
    this.counter++;
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
