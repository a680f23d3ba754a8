import { z } from 'zod';

/**
 * One dictation (or clipboard enhancement) as stored in `conversation_history.jsonl`.
 * WenZi's fields keep their names and meaning so a WenZi history file reads as-is; Tingxie adds
 * `id`, `language`, `source`, `outcome`, `edited_at` and token usage, all optional on read.
 */

/** How a session ended. Absent on WenZi records, which only logged finished sessions. */
export const recordOutcomeSchema = z.enum(['confirmed', 'copied', 'direct', 'cancelled', 'failed']);
export type RecordOutcome = z.infer<typeof recordOutcomeSchema>;

/** Token usage of the enhancement call(s) behind a record. */
export const tokenUsageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  /** Prompt tokens the provider served from its prefix cache. */
  cached_tokens: z.number().int().nonnegative().default(0),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/**
 * `input_context` as found on disk. WenZi (since March 2026, on by default) writes an object such as
 * `{"app_name": "Slack", "bundle_id": "com.tinyspeck.slackmacgap"}` (more keys in its "detailed" level),
 * older files and Tingxie's earlier builds a string, and "off" may leave null. Any object is accepted
 * whatever its keys and their types, so a WenZi record is never rejected (or quarantined) for it; the
 * line's text is what rotation and import copy, so its bytes stay as WenZi wrote them.
 */
export const inputContextSchema = z.union([z.string(), z.null(), z.record(z.string(), z.unknown())]);
export type InputContext = z.infer<typeof inputContextSchema>;

/**
 * What the text rules (src/main/text-rules/) did to the recognized text before the LLM and the paste:
 * the pieces they removed (fillers, stutters, self-corrected words) and the replacement rules and snippets
 * that fired. `asr_text` stays the text as recognized; this says how the text the LLM saw came from it.
 */
export const textRulesReportSchema = z.object({
  removed: z.array(z.object({ text: z.string().max(2000), kind: z.enum(['filler', 'stutter', 'self-correction']) })).max(1000),
  fired: z.array(z.object({ kind: z.enum(['replacement', 'snippet']), from: z.string().max(2000), to: z.string().max(20_000) })).max(1000),
});
export type TextRulesReport = z.infer<typeof textRulesReportSchema>;

/** Record as written by Tingxie (every field it owns is present). */
export const historyRecordSchema = z.object({
  /** Time-sortable unique id (see `newRecordId`). */
  id: z.string().min(1).max(64),
  /** UTC ISO 8601. */
  timestamp: z.string(),
  asr_text: z.string(),
  /** Null when the text was not enhanced. */
  enhanced_text: z.string().nullable(),
  final_text: z.string(),
  enhance_mode: z.string(),
  /** True only when the user saw and confirmed the text in the preview panel. */
  preview_enabled: z.boolean(),
  stt_model: z.string(),
  llm_model: z.string(),
  user_corrected: z.boolean(),
  /** Seconds, rounded to 0.1. */
  audio_duration: z.number().nonnegative(),
  /** Detected or configured language (BCP 47 or whisper code); empty when unknown. */
  language: z.string().default(''),
  source: z.enum(['voice', 'clipboard']).default('voice'),
  outcome: recordOutcomeSchema.optional(),
  /** What the user was typing into, when known: WenZi's object shape, or a plain string (see `inputContextSchema`). */
  input_context: inputContextSchema.optional(),
  /** Set when the final text was edited after logging. */
  edited_at: z.string().optional(),
  usage: tokenUsageSchema.optional(),
  /** Why enhancement fell back to the raw ASR text (failure or guard); absent when it did not. */
  enhance_error: z.string().max(500).optional(),
  /** What the text rules removed and which rules fired (absent when they changed nothing, and on older records). */
  text_rules: textRulesReportSchema.optional(),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

/**
 * A line as found on disk: WenZi wrote no `id` and none of Tingxie's extra fields, and older or
 * hand-edited files may lack more. Unknown fields are kept (passthrough) so a rewrite never drops them.
 */
export const storedRecordSchema = historyRecordSchema
  .extend({
    id: z.string().min(1).max(64).optional(),
    enhanced_text: z.string().nullable().default(null),
    enhance_mode: z.string().default('off'),
    preview_enabled: z.boolean().default(false),
    stt_model: z.string().default(''),
    llm_model: z.string().default(''),
    user_corrected: z.boolean().default(false),
    audio_duration: z.number().nonnegative().default(0),
  })
  .passthrough();
export type StoredRecord = z.infer<typeof storedRecordSchema>;

/** Fields a caller supplies to `log()`; the store assigns `id` and `timestamp` when absent. */
export type NewHistoryRecord = Omit<HistoryRecord, 'id' | 'timestamp'> & Partial<Pick<HistoryRecord, 'id' | 'timestamp'>>;

/** Fields that may be changed after logging (the texts and model: a recording transcribed again replaces them). */
export const recordUpdateSchema = historyRecordSchema
  .pick({ final_text: true, user_corrected: true, outcome: true, enhanced_text: true, asr_text: true, stt_model: true })
  // Without the record's default (''): an update that does not name the language leaves it alone.
  .extend({ language: z.string() })
  .partial()
  .strict();
export type RecordUpdate = z.infer<typeof recordUpdateSchema>;

/**
 * The key a record is addressed by: its `id`, or for WenZi records (no id) its timestamp,
 * which WenZi wrote once per session.
 */
export function recordKey(record: Pick<StoredRecord, 'id' | 'timestamp'>): string {
  return record.id ?? `ts:${record.timestamp}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID-style id: 10 characters of millisecond time then 12 random ones, so ids sort by time.
 * `random` is injectable for deterministic tests.
 */
export function newRecordId(nowMs: number = Date.now(), random: () => number = Math.random): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (let i = 0; i < 12; i++) rand += CROCKFORD[Math.floor(random() * 32) % 32];
  return time + rand;
}

/** Whether a record may be injected into the enhancement prompt as confirmed context (seed rule). */
export function isPreviewConfirmed(record: StoredRecord): boolean {
  return record.preview_enabled && record.outcome !== 'cancelled' && record.outcome !== 'failed';
}
