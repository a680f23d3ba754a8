import type { StoredRecord } from '../../../../src/shared/history/record.ts';
import type { IndexedRecord } from '../../../../src/main/history/history-index.ts';

/** Shared record builders for the index tests (not a test file itself). */

/** A complete stored record with overridable fields. */
export function rec(i: number, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    id: `R${String(i).padStart(8, '0')}`,
    timestamp: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    asr_text: `记录 ${i} plain text`,
    enhanced_text: null,
    final_text: `记录 ${i} plain text`,
    enhance_mode: 'proofread',
    preview_enabled: true,
    stt_model: 'whisper-base',
    llm_model: 'qwen2.5:7b',
    user_corrected: false,
    audio_duration: 2,
    language: 'zh',
    source: 'voice',
    ...over,
  };
}

/** Wraps a record for HistoryIndex.upsert. */
export function row(r: StoredRecord, file = 'active'): IndexedRecord {
  return { key: r.id ?? `ts:${r.timestamp}`, record: r, file };
}
