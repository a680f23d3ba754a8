/**
 * The one writer of a dictation's crash journals: the session state (session-journal.ts,
 * `<dataDir>/sessions/<id>.json`), the session's journaled audio (audio/journal.ts, the WAV) and the raw
 * frames file the capture appends to (session-buffer.ts). Every write the controller and its effect
 * runners make goes through one of the few operations here, so the order that keeps dictations safe
 * reads in one place.
 *
 * Most writes are crash safety the dictation must not depend on: when the disk refuses them (read-only
 * folder, disk full) the dictation goes on — its text still reaches the user — and only its crash
 * safety is lost, which is logged. The few that throw are named so (`keepCancelled`, `forget`,
 * `discard`, `journalRecovered`): the user asked for them, so a refusal is reported.
 */
import fs from 'node:fs';
import { audioJournalOf, type AudioJournal } from '../audio/journal.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import type { RecoverableSession } from '../../shared/ipc/dictation-types.ts';
import { errorText } from './controller-context.ts';
import type { DictationPorts } from '../ports/dictation-ports.ts';
import { recordingFile } from './session-buffer.ts';
import { SessionJournal, type SessionRecord } from './session-journal.ts';

/** What a step writes into a session's state file. */
export type SessionPatch = Partial<Omit<SessionRecord, 'id' | 'createdAt' | 'updatedAt'>>;

/** The session journal, to read. */
export type SessionJournalReader = Pick<SessionJournal, 'dir' | 'get' | 'list' | 'recoverable' | 'journaledRecords'>;
/** The audio journal, to read. */
export type AudioJournalReader = Pick<AudioJournal, 'get' | 'hasAudio' | 'readAudio' | 'list'>;

/** Runs a journal write the dictation must not depend on; false when the disk refused it (logged). */
function bestEffort(log: DictationPorts['log'], what: string, write: () => void): boolean {
  try {
    write();
    return true;
  } catch (err) {
    log?.('warn', `${what} not written; the dictation goes on without it`, { error: errorText(err) });
    return false;
  }
}

/** The session and audio journals of one data folder, with the operations a dictation uses. */
export class SessionJournals {
  private readonly state: SessionJournal;
  private readonly audioJournal: AudioJournal;
  private readonly ports: Pick<DictationPorts, 'config' | 'log'>;

  constructor(ports: Pick<DictationPorts, 'dataDir' | 'config' | 'log'>) {
    this.state = new SessionJournal(ports.dataDir);
    // The folder's one audio journal (audio/journal.ts), shared with the ASR service and History's recordings.
    this.audioJournal = audioJournalOf(ports.dataDir);
    this.ports = ports;
  }

  /** The session states, to read. */
  get sessions(): SessionJournalReader {
    return this.state;
  }

  /** The journaled audio, to read. */
  get audio(): AudioJournalReader {
    return this.audioJournal;
  }

  /** Journaled sessions a crash left behind (except `currentId`, the one running now). */
  recoverable(currentId: string | null): RecoverableSession[] {
    return this.state.recoverable((id) => this.audioJournal.get(id)?.durationSeconds ?? 0, currentId);
  }

  /** The most recent failed or cancelled session with audio (tray: "Retry last dictation"). */
  lastRetryable(): string | null {
    const failed = this.audioJournal.list().filter((e) => e.status === 'failed' || this.state.get(e.id)?.status === 'cancelled');
    return failed.at(-1)?.id ?? null;
  }

  /** The mode journaled session `id` ran in (its state's, else its audio's), if known. */
  modeOf(id: string): string | undefined {
    const meta = this.audioJournal.get(id)?.meta;
    return this.state.get(id)?.mode ?? (typeof meta?.mode === 'string' ? meta.mode : undefined);
  }

  /** Writes session `id`'s step (and what it carries: transcript, record, mode). */
  stage(id: string, patch: SessionPatch): void {
    this.write('the session journal', () => this.state.put(id, patch));
  }

  /** Session `id` was cancelled: its state (when it has one) is kept as cancelled, so it can be reopened. */
  markCancelled(id: string): void {
    if (this.state.get(id)) this.stage(id, { status: 'cancelled' });
  }

  /**
   * Session `id`'s history record is on disk (or will never be written): the journal no longer holds it.
   * `recordKey`: the record's key, which its kept audio is linked to (History plays it).
   */
  dropRecord(id: string, recordKey?: string): void {
    if (this.state.get(id)?.record !== undefined) this.stage(id, { record: undefined });
    if (recordKey !== undefined && this.audioJournal.get(id)) this.write('the audio journal', () => this.audioJournal.link(id, recordKey));
  }

  /**
   * Session `id`'s audio on disk (fsynced) before the (last) ASR call; `keep`: a retry's audio already
   * journaled stays as it is. The raw frames file goes once the WAV is in place (recovery reads the WAV).
   */
  journalAudio(id: string, samples: Float32Array, mode: string, keep: boolean): void {
    if (!keep || !this.audioJournal.hasAudio(id)) this.write('the audio journal', () => this.audioJournal.write(id, samples, SAMPLE_RATE, { mode }));
    this.removeRecordingFile(id);
  }

  /** The transcription of session `id` failed: its audio stays journaled, marked failed, for a retry. */
  markFailed(id: string, message: string): void {
    const entry = this.audioJournal.get(id);
    if (entry && entry.status !== 'failed') this.write('the audio journal', () => this.audioJournal.markFailed(id, message));
    this.write('the session journal', () => this.state.remove(id));
  }

  /** Session `id` ended for good: its state goes, its audio is done (kept per retention, linked to history key `recordKey`). */
  complete(id: string, recordKey?: string): void {
    this.write('the session journal', () => this.state.remove(id));
    if (this.audioJournal.get(id)) this.write('the audio journal', () => this.audioJournal.complete(id, this.ports.config().audio.retention_days, recordKey));
  }

  /** Session `id` had nothing to transcribe: its state, audio and raw frames are forgotten. */
  remove(id: string): void {
    this.write('the session journal', () => this.state.remove(id));
    this.write('the audio journal', () => this.audioJournal.remove(id));
    this.removeRecordingFile(id);
  }

  /** Removes the raw frames file of session `id` (if any). */
  removeRecordingFile(id: string): void {
    this.write('removing the raw recording', () => fs.rmSync(recordingFile(this.state.dir, id), { force: true }));
  }

  /** A cancelled recording stays reopenable (retry from the menu) for the audio retention period. Throws when refused. */
  keepCancelled(id: string, samples: Float32Array): void {
    this.audioJournal.write(id, samples, SAMPLE_RATE, { cancelled: true });
    this.state.put(id, { status: 'cancelled' });
  }

  /** Forgets session `id`'s state. Throws when refused. */
  forget(id: string): void {
    this.state.remove(id);
  }

  /** The user discarded journaled session `id`: state, audio and raw frames go. Throws when refused. */
  discard(id: string): void {
    this.state.remove(id);
    this.audioJournal.remove(id);
    this.removeRecordingFile(id);
  }

  /** A crashed recording's raw frames, made its journaled WAV. Throws when refused. */
  journalRecovered(id: string, samples: Float32Array): void {
    this.audioJournal.write(id, samples, SAMPLE_RATE, { recovered: true });
    this.removeRecordingFile(id);
  }

  private write(what: string, write: () => void): void {
    bestEffort(this.ports.log, what, write);
  }
}
