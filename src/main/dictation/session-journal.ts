/**
 * The state half of the dictation journal: `<dataDir>/sessions/<id>.json` says which step a session
 * reached (and its transcript once known), next to the audio journal's WAV (audio/journal.ts). Written
 * atomically before each step's network call, so a crash at any step can be finished or discarded at
 * the next start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../platform/durable-fs.ts';
import { entryPath, listJsonEntries } from '../platform/json-entries.ts';
import type { DictationState, RecoverableSession } from '../../shared/ipc/dictation-types.ts';
import type { HistoryRecord } from '../../shared/history/record.ts';
import type { AsrOutcome } from './session-types.ts';

/** Folder under the data dir. */
export const SESSIONS_DIR = 'sessions';

/** One session's state file. */
export interface SessionRecord {
  readonly id: string;
  /** active: in progress (a crash leaves it so); cancelled: reopenable; done: finished. */
  readonly status: 'active' | 'cancelled' | 'done';
  readonly stage: DictationState;
  readonly mode: string;
  readonly source: 'voice' | 'clipboard';
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly asr: AsrOutcome | null;
  /**
   * The history record of a session whose text was handed out (or whose preview was cancelled), written
   * before that and cleared only once the record is on disk: a crash or quit in between leaves it here
   * to be logged at the next start (see `journaledRecords`), so the session is never offered again.
   */
  readonly record?: HistoryRecord;
}

/** Session state files under one data folder. */
export class SessionJournal {
  readonly dir: string;
  private readonly now: () => Date;

  constructor(dataDir: string, now: () => Date = () => new Date()) {
    this.dir = path.join(dataDir, SESSIONS_DIR);
    this.now = now;
  }

  private file(id: string): string {
    return entryPath(this.dir, id, 'json', 'session');
  }

  /** Reads a session (undefined when absent or unreadable). */
  get(id: string): SessionRecord | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file(id), 'utf8')) as SessionRecord;
    } catch {
      return undefined;
    }
  }

  /** Creates or updates a session's state, fsynced before it becomes visible. */
  put(id: string, patch: Partial<Omit<SessionRecord, 'id' | 'createdAt' | 'updatedAt'>>): SessionRecord {
    fs.mkdirSync(this.dir, { recursive: true });
    const at = this.now().toISOString();
    const cur = this.get(id);
    const next: SessionRecord = {
      id,
      status: 'active',
      stage: 'recording',
      mode: 'off',
      source: 'voice',
      asr: null,
      ...cur,
      ...patch,
      createdAt: cur?.createdAt ?? at,
      updatedAt: at,
    };
    const target = this.file(id);
    writeFileAtomicSync(target, `${JSON.stringify(next)}\n`);
    return next;
  }

  /** Deletes a session's state file. */
  remove(id: string): void {
    fs.rmSync(this.file(id), { force: true });
  }

  /** Sessions holding a history record that may not be on disk yet (except `exceptId`), oldest first. */
  journaledRecords(exceptId: string | null = null): (SessionRecord & { readonly record: HistoryRecord })[] {
    return this.list().filter((r): r is SessionRecord & { readonly record: HistoryRecord } => r.record !== undefined && r.id !== exceptId);
  }

  /** Every readable session, oldest first. */
  list(): SessionRecord[] {
    return listJsonEntries(this.dir, (id) => this.get(id));
  }

  /**
   * Sessions a crash left active (except `exceptId`, the one running now), as offered to the user. A
   * session holding its record is not among them: it reached the user already, and only its logging is
   * left (`journaledRecords`).
   */
  recoverable(durationOf: (id: string) => number, exceptId: string | null = null): RecoverableSession[] {
    return this.list()
      .filter((r) => r.status === 'active' && r.id !== exceptId && r.record === undefined)
      .map((r) => ({ id: r.id, createdAt: r.createdAt, stage: r.stage, durationSeconds: durationOf(r.id), asrText: r.asr?.text ?? null }));
  }
}
