import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../../../../src/main/history/index/history-index.ts';
import { rebuildIndex, type RebuildProgress } from '../../../../../src/main/history/index/index-rebuild.ts';
import { checkIndexAgainstFiles } from '../../../../../src/main/history/index/index-sync.ts';
import { parseJsonlText } from '../../../../../src/main/history/store/jsonl-reader.ts';
import { recordKey, type StoredRecord } from '../../../../../src/shared/history/record.ts';
import { rec, row } from '../index-fixtures.ts';

let dir: string;
let dbPath: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  dbPath = path.join(dir, 'index.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function writeFixtures(): { active: string; archive: string } {
  const archDir = path.join(dir, 'conversation_history_archives');
  fs.mkdirSync(archDir);
  const archive = path.join(archDir, '2024-12.jsonl');
  const lines = [
    JSON.stringify(rec(1, { timestamp: '2024-12-05T10:00:00Z', asr_text: '果果今天在公园里遇到了平平。', final_text: '果果今天在公园里遇到了萍萍。', user_corrected: true })),
    '{"broken json',
    JSON.stringify({ timestamp: '2024-12-06T10:00:00+00:00', asr_text: 'WenZi record without id', enhanced_text: 'WenZi record without id.', final_text: 'WenZi record without id.', enhance_mode: 'proofread', preview_enabled: true, stt_model: 'funasr-paraformer', llm_model: 'qwen2.5:7b', user_corrected: false, audio_duration: 3.2 }),
    JSON.stringify({ timestamp: 5 }),
    JSON.stringify(rec(2, { timestamp: '2024-12-07T10:00:00Z' })),
  ];
  fs.writeFileSync(archive, `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(archDir, 'unknown.jsonl'), `${JSON.stringify(rec(3, { timestamp: 'garbage' }))}\n`);
  fs.writeFileSync(path.join(archDir, 'notes.txt'), 'not an archive');
  const active = path.join(dir, 'conversation_history.jsonl');
  const activeLines = [
    JSON.stringify(rec(10, { timestamp: '2025-01-02T10:00:00Z' })),
    // Same key as in the archive: the later (active) copy wins, as in a replay.
    JSON.stringify(rec(2, { timestamp: '2024-12-07T10:00:00Z', final_text: 'newer copy in active' })),
    JSON.stringify(rec(11, { timestamp: '2025-01-03T10:00:00Z' })),
  ];
  fs.writeFileSync(active, `${activeLines.join('\n')}\n{"torn": tr`);
  return { active, archive };
}

describe('rebuildIndex (worker thread)', () => {
  it('rebuilds from JSONL fixtures, skipping bad lines, matching a replay; the check then says ok', async () => {
    const { active, archive } = writeFixtures();
    // A stale index with a WAL next to it must be replaced, not merged.
    const old = HistoryIndex.open(dbPath);
    old.upsert([row(rec(999, { asr_text: 'stale record' }))]);
    const progress: RebuildProgress[] = [];
    let swapped = false;
    const result = await rebuildIndex({
      dataDir: dir,
      dbPath,
      batchSize: 2,
      onProgress: (p) => progress.push(p),
      beforeSwap: () => {
        old.close();
        swapped = true;
      },
    });
    expect(swapped).toBe(true);
    expect(result).toMatchObject({ records: 7, files: 3, badLines: 3, tornTails: 1 });
    expect(progress.at(-1)?.phase).toBe('swapping');
    expect(fs.readdirSync(dir).filter((f) => f.includes('.rebuild-'))).toEqual([]);

    // Replay: archives (unknown first, then months) then active, later copies win.
    const replay = new Map<string, { r: StoredRecord; file: string }>();
    const archDir = path.join(dir, 'conversation_history_archives');
    for (const [file, p] of [['unknown', path.join(archDir, 'unknown.jsonl')], ['2024-12', archive], ['active', active]] as const) {
      for (const r of parseJsonlText(fs.readFileSync(p, 'utf8')).records) replay.set(recordKey(r), { r, file });
    }
    const index = HistoryIndex.open(dbPath);
    expect(index.createdFresh).toBe(false);
    const all = index.query({ includeArchived: true, pageSize: 500 });
    const expected = [...replay.entries()]
      .sort((a, b) => (Date.parse(b[1].r.timestamp) || 0) - (Date.parse(a[1].r.timestamp) || 0))
      .map(([key, v]) => [key, v.file, v.r.final_text]);
    expect(all.rows.map((r) => [r.key, r.file, r.final_text])).toEqual(expected);
    expect(index.query({ text: '萍萍', includeArchived: true }).total).toBe(1);
    expect(index.query({ text: 'stale record', includeArchived: true }).total).toBe(0);
    expect(index.getFileState('2024-12')).toMatchObject({ size: fs.statSync(archive).size, count: 3 });
    expect(await checkIndexAgainstFiles(index, dir)).toBe('ok');

    // Append to the active file: stale. Touch an archive without changing it: still ok (count matches).
    fs.appendFileSync(active, `\n${JSON.stringify(rec(12, { timestamp: '2025-01-04T10:00:00Z' }))}\n`);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(archive, later, later);
    expect(await checkIndexAgainstFiles(index, dir)).toEqual({ stale: ['active'] });
    // A vanished archive whose records are indexed is stale too.
    fs.rmSync(path.join(archDir, 'unknown.jsonl'));
    expect(await checkIndexAgainstFiles(index, dir)).toEqual({ stale: ['active', 'unknown'] });
    index.close();
  });

  it('rebuilds an empty data folder into an empty, usable index', async () => {
    const result = await rebuildIndex({ dataDir: dir, dbPath });
    expect(result.records).toBe(0);
    const index = HistoryIndex.open(dbPath);
    expect(index.query({}).total).toBe(0);
    expect(await checkIndexAgainstFiles(index, dir)).toBe('ok');
    index.close();
  });

  it('rebuilds over a corrupt index.db', async () => {
    writeFixtures();
    fs.writeFileSync(dbPath, 'garbage'.repeat(1000));
    expect(await checkIndexAgainstFiles(dbPath, dir)).toBe('corrupt');
    await rebuildIndex({ dataDir: dir, dbPath });
    expect(await checkIndexAgainstFiles(dbPath, dir)).toBe('ok');
  });
});

describe('HistoryIndex.stats', () => {
  it('aggregates by local day and mode against hand-computed numbers', () => {
    const index = HistoryIndex.open(dbPath);
    const usage = (p: number, c: number, k: number) => ({ prompt_tokens: p, completion_tokens: c, cached_tokens: k });
    index.upsert([
      // 2025-03-09 23:30 UTC = 2025-03-10 07:30 in UTC+8
      row(rec(1, { timestamp: '2025-03-09T23:30:00Z', audio_duration: 30, outcome: 'confirmed', usage: usage(100, 20, 64) })),
      row(rec(2, { timestamp: '2025-03-10T01:00:00Z', audio_duration: 90, outcome: 'confirmed', user_corrected: true, usage: usage(200, 30, 128), enhance_mode: 'translate' })),
      row(rec(3, { timestamp: '2025-03-10T02:00:00Z', audio_duration: 6, outcome: 'cancelled' })),
      row(rec(4, { timestamp: '2025-03-10T17:00:00Z', audio_duration: 12 }), '2025-03'), // 03-11 01:00 local, archived, WenZi-style (no outcome)
      row(rec(5, { timestamp: '2025-03-01T00:00:00Z', audio_duration: 600 })), // outside a 7-day window
    ]);
    const s = index.stats({ days: 7, tzOffsetMinutes: 480, now: '2025-03-11T03:00:00Z' });
    expect(s.from).toBe('2025-03-05');
    expect(s.to).toBe('2025-03-11');
    expect(s.perDay).toHaveLength(7);
    const d10 = s.perDay.find((d) => d.day === '2025-03-10');
    expect(d10).toMatchObject({ dictations: 3, confirmed: 2, corrected: 1, cancelled: 1, promptTokens: 300, completionTokens: 50, cachedTokens: 192 });
    expect(d10?.minutesSpoken).toBeCloseTo(126 / 60);
    expect(s.perDay.find((d) => d.day === '2025-03-11')).toMatchObject({ dictations: 1, confirmed: 1, corrected: 0 });
    expect(s.perDay.find((d) => d.day === '2025-03-09')?.dictations).toBe(0);
    expect(s.totals).toMatchObject({ dictations: 4, confirmed: 3, corrected: 1, cancelled: 1, promptTokens: 300 });
    expect(s.perMode.translate).toMatchObject({ dictations: 1, corrected: 1, cachedTokens: 128 });
    expect(s.perMode.proofread?.dictations).toBe(3);
    // In UTC, record 1 falls on 03-09.
    const utc = index.stats({ days: 7, now: '2025-03-11T03:00:00Z' });
    expect(utc.perDay.find((d) => d.day === '2025-03-09')?.dictations).toBe(1);
    expect(index.stats({ since: '2025-02-28T00:00:00Z', now: '2025-03-11T03:00:00Z' }).totals.dictations).toBe(5);
    index.close();
  });
});
