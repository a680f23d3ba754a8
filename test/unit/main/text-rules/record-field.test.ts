/** The record's `text_rules` field: optional, so records written before it (and WenZi's) still parse. */
import { describe, expect, it } from 'vitest';
import { historyRecordSchema, storedRecordSchema } from '../../../../src/shared/history/record.ts';

const base = {
  id: '01ABC', timestamp: '2026-11-27T10:00:00.000Z', asr_text: '嗯，明天三点，不对，四点', enhanced_text: null, final_text: '明天四点', enhance_mode: 'proofread',
  preview_enabled: false, stt_model: 'whisper-base', llm_model: '', user_corrected: false, audio_duration: 2,
};

describe('history record: text_rules', () => {
  it('parses with and without it', () => {
    expect(historyRecordSchema.parse(base).text_rules).toBeUndefined();
    const withRules = { ...base, text_rules: { removed: [{ text: '嗯，', kind: 'filler' }, { text: '三点，不对，', kind: 'self-correction' }], fired: [{ kind: 'replacement', from: '平平', to: '萍萍' }] } };
    expect(historyRecordSchema.parse(withRules).text_rules?.removed).toHaveLength(2);
    expect(storedRecordSchema.parse({ timestamp: base.timestamp, asr_text: 'x', final_text: 'x' }).text_rules).toBeUndefined();
  });

  it('refuses an unknown kind', () => {
    expect(historyRecordSchema.safeParse({ ...base, text_rules: { removed: [{ text: 'x', kind: 'other' }], fired: [] } }).success).toBe(false);
  });
});
