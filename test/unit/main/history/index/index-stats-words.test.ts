import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../../../../src/main/history/index/history-index.ts';
import { rec, row } from '../index-fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-stats-words-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('HistoryIndex.stats: words and the all-time range', () => {
  it('counts the words of delivered texts per day and mode (a Chinese character or a Latin word is one); cancelled texts count none', () => {
    const index = HistoryIndex.open(path.join(dir, 'index.db'));
    index.upsert([
      row(rec(1, { timestamp: '2025-03-10T01:00:00Z', final_text: '今天开会', outcome: 'confirmed' })),
      row(rec(2, { timestamp: '2025-03-10T02:00:00Z', final_text: 'Ship it by Friday.', outcome: 'confirmed', enhance_mode: 'translate' })),
      row(rec(3, { timestamp: '2025-03-10T03:00:00Z', final_text: 'never sent', outcome: 'cancelled' })),
      row(rec(4, { timestamp: '2025-03-11T01:00:00Z', final_text: '用 Python 写', outcome: 'copied' })),
    ]);
    const s = index.stats({ days: 7, now: '2025-03-11T12:00:00Z' });
    expect(s.perDay.find((d) => d.day === '2025-03-10')?.words).toBe(8);
    expect(s.perDay.find((d) => d.day === '2025-03-11')?.words).toBe(3);
    expect(s.perMode.translate?.words).toBe(4);
    expect(s.totals.words).toBe(11);
    index.close();
  });

  it("'all' starts at the oldest record's local day; an empty history is one day", () => {
    const index = HistoryIndex.open(path.join(dir, 'index.db'));
    expect(index.stats({ days: 'all', now: '2025-03-11T12:00:00Z' }).perDay).toHaveLength(1);
    index.upsert([row(rec(1, { timestamp: '2024-12-31T20:00:00Z' })), row(rec(2, { timestamp: '2025-03-11T01:00:00Z' }))]);
    const utc = index.stats({ days: 'all', now: '2025-03-11T12:00:00Z' });
    expect(utc.from).toBe('2024-12-31');
    expect(utc.totals.dictations).toBe(2);
    // In UTC+8 the first record is already on 01-01.
    expect(index.stats({ days: 'all', tzOffsetMinutes: 480, now: '2025-03-11T12:00:00Z' }).from).toBe('2025-01-01');
    index.close();
  });
});
