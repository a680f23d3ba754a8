import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../platform/durable-fs.ts';
import { entryPath, listJsonEntries } from '../platform/json-entries.ts';
import { decodeWav, encodeWav } from './wav.ts';
import { redact } from '../../shared/redact.ts';

/*
 * The audio journal, the one owner of recordings on disk: every write, finish and sweep of a session's WAV
 * goes through one instance per data folder ({@link audioJournalOf}) — the dictation's session journals
 * (dictation/session-journals.ts), the ASR service's journal-then-transcribe order (asr/journaled.ts) and
 * the History's recordings (dictation/recordings/) all use it.
 *
 * A session's audio is on disk before any ASR call, so a crash of the app or the engine, or a failed
 * remote call, loses nothing and can be retried. Layout: <dataDir>/journal/<id>.wav (16-bit, 16 kHz mono)
 * + <id>.json (state). Writes are atomic (temp file, fsync, rename). When the record is safely in the
 * history the entry is marked done, linked to the record's key (`meta.records`, so History can play it),
 * and deleted at once (retention 0) or by the sweep after audio.retention_days; pending and failed
 * entries are never swept.
 */

/** Folder name under the data dir. */
export const JOURNAL_DIR = 'journal';

/** State of a journaled session. */
export type JournalStatus = 'pending' | 'failed' | 'done';

/** The JSON side of a journal entry. */
export interface JournalEntry {
  readonly id: string;
  readonly status: JournalStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly sampleRate: number;
  readonly durationSeconds: number;
  /** Last error (failed entries), for the retry UI. */
  readonly error?: string;
  /** Free-form details from the caller (mode, engine, target app…); `records`: the history keys it is the audio of. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** What the kept recordings take on disk (Settings › Privacy). */
export interface RecordingsUsage {
  readonly count: number;
  readonly bytes: number;
}

/** The history keys an entry is the audio of. */
export function recordKeysOf(entry: JournalEntry | undefined): readonly string[] {
  const keys = entry?.meta?.records;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}

const journals = new Map<string, AudioJournal>();

/** The one audio journal of `dataDir` (one instance per folder, so its record links stay in step). */
export function audioJournalOf(dataDir: string): AudioJournal {
  const dir = path.resolve(dataDir);
  let j = journals.get(dir);
  if (j === undefined) {
    j = new AudioJournal(dir);
    journals.set(dir, j);
  }
  return j;
}

/** Audio journal under one data folder. */
export class AudioJournal {
  readonly dir: string;
  private readonly now: () => Date;
  /** History key → entry id, built on first use from the entries' `meta.records`, kept by this instance's writes. */
  private byRecord: Map<string, string> | undefined;

  constructor(dataDir: string, now: () => Date = () => new Date()) {
    this.dir = path.join(dataDir, JOURNAL_DIR);
    this.now = now;
  }

  private file(id: string, ext: 'wav' | 'json'): string {
    return entryPath(this.dir, id, ext, 'journal');
  }

  /** Writes the audio (16 kHz mono float) and a pending entry; returns the entry. */
  write(id: string, samples: Float32Array, sampleRate: number, meta?: Readonly<Record<string, unknown>>): JournalEntry {
    fs.mkdirSync(this.dir, { recursive: true });
    const at = this.now().toISOString();
    const entry: JournalEntry = { id, status: 'pending', createdAt: at, updatedAt: at, sampleRate, durationSeconds: samples.length / sampleRate, ...(meta ? { meta } : {}) };
    writeFileAtomicSync(this.file(id, 'wav'), encodeWav(samples, sampleRate, 'pcm16'));
    writeFileAtomicSync(this.file(id, 'json'), `${JSON.stringify(entry, null, 2)}\n`);
    return entry;
  }

  /**
   * Writes the audio unless entry `id` already has it; false when the disk refused (read-only folder,
   * disk full): the caller goes on without the crash safety rather than failing.
   */
  ensure(id: string, samples: Float32Array, sampleRate: number, meta?: Readonly<Record<string, unknown>>): boolean {
    try {
      if (this.get(id) === undefined || !this.hasAudio(id)) this.write(id, samples, sampleRate, meta);
      return true;
    } catch {
      return false;
    }
  }

  /** Reads an entry; undefined when there is none (or its JSON is unreadable). */
  get(id: string): JournalEntry | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file(id, 'json'), 'utf8')) as JournalEntry;
    } catch {
      return undefined;
    }
  }

  /** The journaled audio of an entry, 16 kHz mono float. */
  readAudio(id: string): Float32Array {
    return decodeWav(fs.readFileSync(this.file(id, 'wav'))).samples;
  }

  /** The journaled audio of an entry as its WAV file's bytes (History plays and saves it as is). */
  readWav(id: string): Buffer {
    return fs.readFileSync(this.file(id, 'wav'));
  }

  /** The size of an entry's WAV file in bytes (0 when it has none). */
  audioBytes(id: string): number {
    try {
      return fs.statSync(this.file(id, 'wav')).size;
    } catch {
      return 0;
    }
  }

  /** True when the audio file exists. */
  hasAudio(id: string): boolean {
    return fs.existsSync(this.file(id, 'wav'));
  }

  private update(id: string, patch: Partial<JournalEntry>): JournalEntry {
    const cur = this.get(id);
    if (cur === undefined) throw new Error(`no journal entry '${id}'`);
    const next = { ...cur, ...patch, updatedAt: this.now().toISOString() };
    writeFileAtomicSync(this.file(id, 'json'), `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }

  /** Marks an entry failed (ASR or a later step); it stays for a retry. */
  markFailed(id: string, error: string): JournalEntry {
    // The error can carry a provider's text, which can echo an API key: never written to disk as is.
    return this.update(id, { status: 'failed', error: redact(error) });
  }

  /** {@link markFailed} when the entry exists; a disk that refuses it is ignored (the audio is not there to mark). */
  markFailedIfPresent(id: string, error: string): void {
    try {
      if (this.get(id) !== undefined) this.markFailed(id, error);
    } catch {
      // Same: nothing on disk to mark.
    }
  }

  /**
   * The record is safely logged: delete now when retentionDays is 0, else mark done for the sweep, linked
   * to history key `recordKey` when given (History plays it).
   */
  complete(id: string, retentionDays: number, recordKey?: string): void {
    if (retentionDays <= 0) {
      this.remove(id);
      return;
    }
    this.update(id, { status: 'done', ...(recordKey !== undefined ? { meta: this.linkedMeta(id, recordKey) } : {}) });
  }

  /** Links entry `id` to history key `recordKey` without changing its status (a cancelled preview's record). */
  link(id: string, recordKey: string): void {
    this.update(id, { meta: this.linkedMeta(id, recordKey) });
  }

  private linkedMeta(id: string, recordKey: string): Record<string, unknown> {
    const cur = this.get(id);
    const keys = recordKeysOf(cur);
    if (this.byRecord !== undefined) {
      const before = this.byRecord.get(recordKey);
      if (before !== undefined && before !== id) this.unlinkFrom(before, recordKey);
      this.byRecord.set(recordKey, id);
    }
    return { ...cur?.meta, records: keys.includes(recordKey) ? keys : [...keys, recordKey] };
  }

  private unlinkFrom(id: string, recordKey: string): void {
    const cur = this.get(id);
    if (cur === undefined) return;
    this.update(id, { meta: { ...cur.meta, records: recordKeysOf(cur).filter((k) => k !== recordKey) } });
  }

  /** Deletes an entry's files (missing files are fine). */
  remove(id: string): void {
    const keys = this.byRecord === undefined ? [] : recordKeysOf(this.get(id));
    fs.rmSync(this.file(id, 'wav'), { force: true });
    fs.rmSync(this.file(id, 'json'), { force: true });
    for (const k of keys) if (this.byRecord?.get(k) === id) this.byRecord.delete(k);
  }

  /** The entry holding the audio of history record `recordKey`, if it is still kept. */
  recordingOf(recordKey: string): JournalEntry | undefined {
    this.byRecord ??= this.buildRecordMap();
    const id = this.byRecord.get(recordKey);
    if (id === undefined) return undefined;
    const entry = this.get(id);
    // Verified on every hit: a file removed behind this instance's back reads as no recording.
    if (entry === undefined || !recordKeysOf(entry).includes(recordKey) || !this.hasAudio(id)) {
      this.byRecord.delete(recordKey);
      return undefined;
    }
    return entry;
  }

  private buildRecordMap(): Map<string, string> {
    const map = new Map<string, string>();
    for (const e of this.list()) for (const k of recordKeysOf(e)) map.set(k, e.id);
    return map;
  }

  /**
   * History record `recordKey` is gone: its audio goes too, unless another record (a re-transcription kept
   * beside it) still uses it. True when an entry was linked to it.
   */
  forgetRecord(recordKey: string): boolean {
    const entry = this.recordingOf(recordKey);
    if (entry === undefined) return false;
    const rest = recordKeysOf(entry).filter((k) => k !== recordKey);
    this.byRecord?.delete(recordKey);
    if (rest.length === 0) this.remove(entry.id);
    else this.update(entry.id, { meta: { ...entry.meta, records: rest } });
    return true;
  }

  /** The whole history was deleted: every finished or linked recording goes (failed and pending ones stay for a retry). */
  forgetAllRecords(): number {
    let removed = 0;
    for (const e of this.list()) {
      if (e.status === 'done' || recordKeysOf(e).length > 0) {
        this.remove(e.id);
        removed++;
      }
    }
    this.byRecord = undefined;
    return removed;
  }

  /** How many WAVs the journal holds and their size. */
  usage(): RecordingsUsage {
    let count = 0;
    let bytes = 0;
    for (const e of this.list()) {
      const size = this.audioBytes(e.id);
      // A state file without its audio (a refused write) counts for nothing.
      if (size > 0) {
        bytes += size;
        count++;
      }
    }
    return { count, bytes };
  }

  /** Every entry, oldest first; entries whose JSON is unreadable are skipped. */
  list(): JournalEntry[] {
    return listJsonEntries(this.dir, (id) => this.get(id));
  }

  /** Entries a crash or failure left behind (pending or failed): the retry list. */
  unfinished(): JournalEntry[] {
    return this.list().filter((e) => e.status !== 'done');
  }

  /** Deletes done entries older than retentionDays; returns how many were removed. */
  prune(retentionDays: number): number {
    const cutoff = this.now().getTime() - retentionDays * 86_400_000;
    let removed = 0;
    for (const e of this.list()) {
      if (e.status === 'done' && Date.parse(e.updatedAt) <= cutoff) {
        this.remove(e.id);
        removed++;
      }
    }
    return removed;
  }
}
