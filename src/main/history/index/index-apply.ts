import fs from 'node:fs';
import { recordKey } from '../../../shared/history/record.ts';
import type { HistoryIndex, IndexedRecord } from './history-index.ts';
import { readTailFingerprint, tailFingerprint, TAIL_BYTES } from './index-follow.ts';
import { readLines } from '../store/jsonl-log.ts';
import type { AppendSpan, HistoryFileLabel, StoreEvent } from '../store/store-types.ts';

/**
 * Mirrors the store's own changes into the index, one transaction per change, and keeps each file's
 * FileState (size, mtime, count, tail fingerprint) in step. An append whose bytes do not start where
 * the index's state of the active file ends means another program wrote in between: the state is then
 * left as it was, and `apply` reports a gap so the caller reads the other writer's lines (index-follow.ts).
 */
export class IndexMirror {
  /** Records per file as the index holds them (kept in step so `log()` never runs a COUNT). */
  private readonly counts = new Map<HistoryFileLabel, number>();
  private readonly pathOf: (file: HistoryFileLabel) => string;

  constructor(pathOf: (file: HistoryFileLabel) => string) {
    this.pathOf = pathOf;
  }

  /** Applies one store change; true when the active file holds bytes the index has not seen (another writer). */
  apply(index: HistoryIndex, e: StoreEvent): boolean {
    const touched = new Set<HistoryFileLabel>();
    let gap = false;
    let span: AppendSpan | undefined;
    index.transaction(() => {
      switch (e.type) {
        case 'appended': {
          const key = recordKey(e.record);
          const before = index.fileOfKey(key);
          index.upsert([{ key, record: e.record, file: 'active' }]);
          if (before === undefined) this.bump('active', 1);
          else if (before !== 'active') this.forget(before, 'active');
          const state = index.getFileState('active');
          if (e.span && (state?.size ?? 0) === e.span.start) span = e.span;
          else gap = true;
          if (!gap) touched.add('active');
          break;
        }
        case 'updated':
          index.upsert([{ key: recordKey(e.record), record: e.record, file: e.file }]);
          touched.add(e.file);
          break;
        case 'deleted':
          index.remove(e.keys);
          this.forget(e.file);
          touched.add(e.file);
          break;
        case 'rotated': {
          const byMonth = new Map<string, string[]>();
          for (const m of e.rotation.moves) byMonth.set(m.month, [...(byMonth.get(m.month) ?? []), m.key]);
          for (const [month, keys] of byMonth) {
            index.moveToFile(keys, month);
            this.bump(month, keys.length);
            this.bump('active', -keys.length);
            touched.add(month);
          }
          touched.add('active');
          break;
        }
        case 'added': {
          const rows: IndexedRecord[] = e.rows.map((r) => ({ key: recordKey(r.record), record: r.record, file: r.file }));
          index.upsert(rows);
          for (const r of rows) touched.add(r.file);
          this.forget(...touched);
          break;
        }
        case 'cleared':
          for (const f of e.files) {
            index.remove(index.keysOfFile(f));
            touched.add(f);
          }
          this.forget(...touched);
          break;
        default: {
          const never: never = e;
          throw new Error(`unknown store event ${JSON.stringify(never)}`);
        }
      }
      for (const f of touched) this.saveFileState(index, f, f === 'active' ? span : undefined);
    });
    return gap;
  }

  /**
   * Applies changes made during a rebuild to the new index. The worker may have read a file before or
   * after each change, so only idempotent steps are used: appends, edits and deletes are replayed; files
   * touched by a rotation, import or clear are re-read (archives first, active last) and made to match.
   * True when an append found bytes the index has not seen (see `apply`).
   */
  async catchUp(index: HistoryIndex, events: readonly StoreEvent[]): Promise<boolean> {
    const resync = new Set<HistoryFileLabel>();
    let gap = false;
    for (const e of events) {
      switch (e.type) {
        case 'appended':
        case 'updated':
        case 'deleted':
          if (this.apply(index, e)) gap = true;
          break;
        case 'rotated':
          resync.add('active');
          for (const m of e.rotation.moves) resync.add(m.month);
          break;
        case 'added':
          for (const r of e.rows) resync.add(r.file);
          break;
        case 'cleared':
          for (const f of e.files) resync.add(f);
          break;
        default: {
          const never: never = e;
          throw new Error(`unknown store event ${JSON.stringify(never)}`);
        }
      }
    }
    const order = [...resync].filter((f) => f !== 'active').sort();
    if (resync.has('active')) order.push('active');
    for (const file of order) {
      const lines = await readLines(this.pathOf(file));
      const rows: IndexedRecord[] = lines.flatMap((l) => (l.kind === 'record' ? [{ key: recordKey(l.record), record: l.record, file }] : []));
      const present = new Set(rows.map((r) => r.key));
      index.transaction(() => {
        index.remove(index.keysOfFile(file).filter((k) => !present.has(k)));
        index.upsert(rows);
        this.counts.clear();
        this.saveFileState(index, file);
      });
    }
    return gap;
  }

  /** Forgets cached counts (all of them when no file is named): they are read from the index when next needed. */
  forget(...files: HistoryFileLabel[]): void {
    if (files.length === 0) this.counts.clear();
    for (const f of files) this.counts.delete(f);
  }

  /**
   * Records a file's state as the index now holds it. `span`: the app's own append just ended there, so
   * the size and fingerprint come from what it wrote (bytes another program added after it stay unseen
   * and are read by the next follow-up); otherwise the file as it is on disk.
   */
  saveFileState(index: HistoryIndex, file: HistoryFileLabel, span?: AppendSpan): void {
    const filePath = this.pathOf(file);
    let st: fs.Stats;
    try {
      st = fs.statSync(filePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      index.deleteFileState(file);
      this.counts.delete(file);
      return;
    }
    const size = span?.end ?? st.size;
    const tail = span && span.tail.length >= Math.min(size, TAIL_BYTES) ? tailFingerprint(span.tail) : readTailFingerprint(filePath, size);
    index.setFileState(file, { size, mtimeMs: st.mtimeMs, count: this.countOf(index, file), ...(tail === null ? {} : { tail }) });
  }

  /** Adjusts a cached per-file count (no-op when not cached: it is read from the index when next needed). */
  private bump(file: HistoryFileLabel, delta: number): void {
    const n = this.counts.get(file);
    if (n !== undefined) this.counts.set(file, n + delta);
  }

  private countOf(index: HistoryIndex, file: HistoryFileLabel): number {
    let n = this.counts.get(file);
    if (n === undefined) {
      n = index.count(file);
      this.counts.set(file, n);
    }
    return n;
  }
}
