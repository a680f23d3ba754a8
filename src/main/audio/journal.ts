import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../platform/durable-fs.ts';
import { entryPath, listJsonEntries } from '../platform/json-entries.ts';
import { decodeWav, encodeWav } from './wav.ts';
import { redact } from '../../shared/redact.ts';

/*
 * The audio journal: a session's audio is on disk before any ASR call, so a crash of the app or the engine,
 * or a failed remote call, loses nothing and can be retried. Layout: <dataDir>/journal/<id>.wav (16-bit,
 * 16 kHz mono) + <id>.json (state). Writes are atomic (temp file, fsync, rename). When the record is safely
 * in the history the entry is marked done and deleted at once (retention 0) or after audio.retention_days;
 * pending and failed entries are never pruned.
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
  /** Free-form details from the caller (mode, engine, target app…). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** Audio journal under one data folder. */
export class AudioJournal {
  readonly dir: string;
  private readonly now: () => Date;

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

  /** The record is safely logged: delete now when retentionDays is 0, else mark done for prune(). */
  complete(id: string, retentionDays: number): void {
    if (retentionDays <= 0) {
      this.remove(id);
      return;
    }
    this.update(id, { status: 'done' });
  }

  /** Deletes an entry's files (missing files are fine). */
  remove(id: string): void {
    fs.rmSync(this.file(id, 'wav'), { force: true });
    fs.rmSync(this.file(id, 'json'), { force: true });
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
