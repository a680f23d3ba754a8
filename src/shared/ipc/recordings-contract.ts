/** Request schemas and response types of the recordings channels, spread into contract.ts. */
import { z } from 'zod';

/** Phantom type marker (contract.ts's `returns`, repeated to avoid an import cycle). */
const marker = <T>(): { readonly __type?: T } => ({});
const none = z.undefined({ error: 'this call takes no payload' });
// Same bounds as contract.ts's recordKeySchema (repeated to avoid an import cycle).
const key = z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters');

/** A speech engine a recording can be transcribed again with: an installed local model, or the remote API. */
export const speechChoiceSchema = z.strictObject({
  engine: z.enum(['local', 'remote']),
  /** The local model's name (asr.local.model), or the remote API's model. */
  model: z.string().min(1).max(200),
});
export type SpeechChoice = z.infer<typeof speechChoiceSchema>;

/** A record's kept audio, as the detail pane shows it. */
export interface RecordingInfo {
  /** Null: this record has no audio (never recorded, expired, deleted, or imported). */
  readonly audio: {
    readonly seconds: number;
    readonly bytes: number;
    /** Where the page's <audio> loads it: a path on the app's own origin (app://tingxie/recordings/…), never a file path. */
    readonly src: string;
  } | null;
  /** What "Re-transcribe with …" offers: installed local models, then the remote engine when it is set up. */
  readonly choices: readonly SpeechChoice[];
}

/** What a re-transcription found (nothing is saved until `recordings:apply`). */
export interface RetranscribeResult {
  readonly text: string;
  /** As the record names it (`stt_model`). */
  readonly sttModel: string;
  readonly language: string;
}

/** What the kept audio takes on disk, and what the last retention sweep removed (Settings › Privacy). */
export interface RecordingsUsageInfo {
  readonly count: number;
  readonly bytes: number;
  readonly retentionDays: number;
  /** The last sweep (at start-up, then daily); null before the first. */
  readonly lastSweep: { readonly at: string; readonly removed: number } | null;
}

/** Channel map of the recordings feature; contract.ts spreads it in. */
export const recordingsContract = {
  'recordings:info': { request: z.strictObject({ key }), response: marker<RecordingInfo>() },
  /** Shows a save dialog in main and writes the record's audio there as a WAV; the chosen path, or null when cancelled. */
  'recordings:save': { request: z.strictObject({ key }), response: marker<string | null>() },
  'recordings:retranscribe': { request: z.strictObject({ key, choice: speechChoiceSchema }), response: marker<RetranscribeResult>() },
  /**
   * Saves a re-transcription: `replace` puts it in place of the record's texts (transcript, enhanced and
   * final text; the model), `beside` logs it as a new record that shares the audio. Resolves to the key of
   * the record that now holds it.
   */
  'recordings:apply': {
    request: z.strictObject({
      key,
      how: z.enum(['replace', 'beside']),
      text: z.string().max(100_000, 'must be at most 100000 characters'),
      sttModel: z.string().max(200),
      language: z.string().max(32),
    }),
    response: marker<string>(),
  },
  'recordings:usage': { request: none, response: marker<RecordingsUsageInfo>() },
} as const;
