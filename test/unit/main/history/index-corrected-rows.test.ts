import { describe, expect, it } from 'vitest';
import type { HistoryIndex } from '../../../../src/main/history/index/history-index.ts';
import { rec, row, useTempIndex } from './index-fixtures.ts';

let index: HistoryIndex;
useTempIndex((opened) => (index = opened));

describe('HistoryIndex.correctedRows / correctedRowsByKeys', () => {
  it('pages through corrected records only, newest first, archives included, by rowid cursor', () => {
    // 30 records, every third corrected; some of them archived.
    const rows = Array.from({ length: 30 }, (_, i) =>
      row(rec(i, { user_corrected: i % 3 === 0, asr_text: `平平 ${i}`, final_text: `萍萍 ${i}`, preview_enabled: i !== 6, outcome: i === 9 ? 'cancelled' : 'confirmed' }), i < 12 ? '2024-12' : 'active'),
    );
    index.upsert(rows);
    const seen: string[] = [];
    let cursor: number | undefined;
    let pages = 0;
    for (;;) {
      const page = index.correctedRows({ ...(cursor !== undefined ? { beforeRid: cursor } : {}), limit: 4 });
      pages++;
      seen.push(...page.map((r) => r.key));
      const last = page.at(-1);
      if (!last || page.length < 4) break;
      cursor = last.rid;
    }
    const expected = Array.from({ length: 30 }, (_, i) => 29 - i).filter((i) => i % 3 === 0).map((i) => `R${String(i).padStart(8, '0')}`);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
    const first = index.correctedRows({ limit: 1 })[0];
    expect(first).toMatchObject({ key: 'R00000027', file: 'active', asr_text: '平平 27', final_text: '萍萍 27', enhance_mode: 'proofread', preview_enabled: true, outcome: 'confirmed' });
    // The preview/outcome columns come back as stored, for the caller's own rule.
    const six = index.correctedRowsByKeys(['R00000006', 'R00000009']);
    expect(six.map((r) => [r.key, r.file, r.preview_enabled, r.outcome])).toEqual([
      ['R00000006', '2024-12', false, 'confirmed'],
      ['R00000009', '2024-12', true, 'cancelled'],
    ]);
  });

  it('by key skips unknown and uncorrected keys and follows edits and deletes', () => {
    index.upsert([row(rec(1, { user_corrected: true })), row(rec(2))]);
    expect(index.correctedRowsByKeys(['R00000002', 'nope', 'R00000001']).map((r) => r.key)).toEqual(['R00000001']);
    index.upsert([row(rec(1, { user_corrected: false }))]);
    expect(index.correctedRowsByKeys(['R00000001'])).toEqual([]);
    expect(index.correctedRows({ limit: 10 })).toEqual([]);
    index.upsert([row(rec(2, { user_corrected: true }))]);
    index.remove(['R00000002']);
    expect(index.correctedRows({ limit: 10 })).toEqual([]);
    expect(index.correctedRowsByKeys([])).toEqual([]);
  });
});
