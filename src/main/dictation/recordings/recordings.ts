/**
 * The History's recordings. A finished dictation's audio stays in the audio journal (audio/journal.ts, the
 * one owner of recordings on disk) for `audio.retention_days`, linked to its history record; here is what
 * the History Browser and Settings do with it: the detail pane's facts, the WAV for the app's protocol
 * (app/recording-route.ts) and for "Save as WAV", "Re-transcribe with …" and saving its result in place of
 * the record's texts or beside them, and the retention sweep with its report. Deleting records deletes
 * their audio (history-deletions.ts).
 */
import { promises as fsp } from 'node:fs';
import { audioJournalOf, type AudioJournal } from '../../audio/journal.ts';
import type { HistoryService } from '../../history/history-service.ts';
import type { Config } from '../../../shared/config/config-schema.ts';
import type { RecordingInfo, RecordingsUsageInfo, RetranscribeResult, SpeechChoice } from '../../../shared/ipc/recordings-contract.ts';
import { recordKey, type NewHistoryRecord } from '../../../shared/history/record.ts';
import { speechChoices, transcribeWith, type RetranscribeAsr } from './retranscribe.ts';

/** What the recordings are built over. */
export interface RecordingsDeps {
  readonly dataDir: string;
  readonly config: () => Config;
  readonly history: Pick<HistoryService, 'update' | 'log'>;
  /** The dictation's ASR service, read per call; null where dictation does not run (re-transcription then says so). */
  readonly asr?: () => RetranscribeAsr | null;
  /** Asks where to save a WAV (a save dialog in the app); null when the user cancelled. */
  readonly saveFile?: (defaultName: string) => Promise<string | null>;
  readonly now?: () => Date;
}

/** A save or re-transcription of a record without kept audio. */
export class NoRecordingError extends Error {
  constructor(key: string) {
    super(`record ${key} has no recording (none was kept, it expired, or it was deleted)`);
    this.name = 'NoRecordingError';
  }
}

/** Path on the app's origin a record's audio is served at (app/recording-route.ts answers it). */
export function recordingSrc(key: string): string {
  return `/recordings/${encodeURIComponent(key)}.wav`;
}

/** The recordings of one data folder. */
export class Recordings {
  readonly journal: AudioJournal;
  private readonly deps: RecordingsDeps;
  private lastSweep: { readonly at: string; readonly removed: number } | null = null;

  constructor(deps: RecordingsDeps) {
    this.deps = deps;
    this.journal = audioJournalOf(deps.dataDir);
  }

  /** What the detail pane shows of record `key`'s audio, and what it can be transcribed again with. */
  info(key: string): RecordingInfo {
    const entry = this.journal.recordingOf(key);
    const bytes = entry === undefined ? 0 : this.journal.audioBytes(entry.id);
    return {
      audio: entry === undefined ? null : { seconds: Math.round(entry.durationSeconds * 10) / 10, bytes, src: recordingSrc(key) },
      choices: entry === undefined || !this.deps.asr?.() ? [] : speechChoices(this.deps.dataDir, this.deps.config()),
    };
  }

  /** Record `key`'s audio as WAV bytes; null when it has none. */
  wav(key: string): Uint8Array | null {
    const entry = this.journal.recordingOf(key);
    return entry === undefined ? null : this.journal.readWav(entry.id);
  }

  /** Asks where, and writes record `key`'s audio there as a WAV; the path, or null when cancelled. */
  async saveAs(key: string): Promise<string | null> {
    const bytes = this.wav(key);
    if (bytes === null) throw new NoRecordingError(key);
    if (!this.deps.saveFile) throw new Error('saving needs a file dialog, which this set-up does not have');
    const file = await this.deps.saveFile(`tingxie-${key}.wav`);
    if (file === null) return null;
    await fsp.writeFile(file, bytes);
    return file;
  }

  /** Transcribes record `key`'s audio again with `choice`; nothing is saved (see {@link apply}). */
  async retranscribe(key: string, choice: SpeechChoice): Promise<RetranscribeResult> {
    const entry = this.journal.recordingOf(key);
    if (entry === undefined) throw new NoRecordingError(key);
    const asr = this.deps.asr?.();
    if (!asr) throw new Error('speech recognition is not running (dictation did not start)');
    if (!speechChoices(this.deps.dataDir, this.deps.config()).some((c) => c.engine === choice.engine && c.model === choice.model)) {
      throw new Error(`${choice.engine} model ${choice.model} is not installed or set up`);
    }
    return transcribeWith(asr, this.deps.config(), choice, this.journal.readAudio(entry.id));
  }

  /**
   * Saves a re-transcription of record `key`: `replace` puts it in place of the texts (the enhanced text,
   * made from the old transcript, goes; "Re-run in mode" makes a new one), `beside` logs a new record that
   * shares the audio. Resolves to the key of the record that holds it.
   */
  async apply(key: string, how: 'replace' | 'beside', result: RetranscribeResult): Promise<string> {
    const entry = this.journal.recordingOf(key);
    if (entry === undefined) throw new NoRecordingError(key);
    if (how === 'replace') {
      const updated = await this.deps.history.update(key, {
        asr_text: result.text,
        enhanced_text: null,
        final_text: result.text,
        stt_model: result.sttModel,
        language: result.language,
        user_corrected: false,
      });
      if (updated === null) throw new Error(`record ${key} is no longer in the history`);
      return key;
    }
    const record: NewHistoryRecord = {
      asr_text: result.text,
      enhanced_text: null,
      final_text: result.text,
      enhance_mode: 'off',
      preview_enabled: false,
      stt_model: result.sttModel,
      llm_model: '',
      user_corrected: false,
      audio_duration: Math.round(entry.durationSeconds * 10) / 10,
      language: result.language,
      source: 'voice',
    };
    const logged = await this.deps.history.log(record);
    if (!logged.saved && !logged.pending) throw new Error('the history did not take the record (is history turned off?)');
    const newKey = recordKey(logged.record);
    this.journal.link(entry.id, newKey);
    return newKey;
  }

  /** Removes the finished recordings older than audio.retention_days; remembered for {@link usage}. */
  sweep(): number {
    const removed = this.journal.prune(this.deps.config().audio.retention_days);
    this.lastSweep = { at: (this.deps.now?.() ?? new Date()).toISOString(), removed };
    return removed;
  }

  /** What the kept audio takes on disk, and the last sweep. */
  usage(): RecordingsUsageInfo {
    return { ...this.journal.usage(), retentionDays: this.deps.config().audio.retention_days, lastSweep: this.lastSweep };
  }
}
