import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { StoredRecord } from '../../../../src/shared/history/record.ts';
import { HistoryIndex, type IndexedRecord } from '../../../../src/main/history/index/history-index.ts';
import { makeTempDir, rmTempDir } from '../../../helpers/history-fixtures.ts';

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

/** Call at a test file's top level: before each test a fresh index in a temp folder is handed to `use`; after it, closed and removed. */
export function useTempIndex(use: (index: HistoryIndex) => void): void {
  let dir: string;
  let index: HistoryIndex;
  beforeEach(() => {
    dir = makeTempDir();
    index = HistoryIndex.open(path.join(dir, 'index.db'));
    use(index);
  });
  afterEach(() => {
    index.close();
    rmTempDir(dir);
  });
}
