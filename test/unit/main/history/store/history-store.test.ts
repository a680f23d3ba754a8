import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../../../../src/main/history/store/history-store.ts';
import { parseJsonlText } from '../../../../../src/main/history/store/jsonl-reader.ts';
import { fileLines, minuteTimestamps, newRecord, quiet, useTempDirs, wenziLine } from '../../../../helpers/history-fixtures.ts';

const tmp = useTempDirs();

describe('parseJsonlText', () => {
  it('ignores blank lines, reports bad lines with numbers, detects a torn tail', () => {
    const ok = wenziLine('2026-03-12T10:30:00+00:00');
    const r = parseJsonlText(`${ok}\n\n{"nope"\n${ok}\n{"timestamp":"2026`);
    expect(r.records).toHaveLength(2);
    expect(r.bad.map((b) => b.line)).toEqual([3, 5]);
    expect(r.bad[0]?.reason).toMatch(/invalid JSON/);
    expect(r.tornTail).toBe(true);
  });
  it('rejects a valid JSON line missing required fields, defaults optional ones', () => {
    const r = parseJsonlText(`{"timestamp":"2026-01-01T00:00:00Z","final_text":"x"}\n{"timestamp":"t","asr_text":"a","final_text":"b"}\n`);
    expect(r.bad).toHaveLength(1);
    expect(r.bad[0]?.reason).toMatch(/asr_text/);
    expect(r.records[0]).toMatchObject({ enhance_mode: 'off', preview_enabled: false, enhanced_text: null });
    expect(r.tornTail).toBe(false);
  });
});

describe('HistoryStore log / crash repair', () => {
  it('log assigns id + timestamp, appends exactly one line and returns the record', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    const rec = await store.log(newRecord());
    expect(rec.id).toMatch(/^[0-9A-Z]{22}$/);
    expect(Date.parse(rec.timestamp)).not.toBeNaN();
    const lines = fileLines(store.paths.active);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ id: rec.id, final_text: rec.final_text });
  });

  it.each([
    ['a torn JSON tail', '{"timestamp":"2026-03-01T00:00:00Z","asr_te'],
    ['a NUL-filled tail', '\u0000'.repeat(64)],
    ['half a UTF-8 character', Buffer.concat([Buffer.from('{"timestamp":"2026-03-01T00:00:00Z","asr_text":"'), Buffer.from('萍').subarray(0, 2)])],
  ])('repairs %s before the next append: quarantined, nothing glued', async (_name, tail) => {
    const dir = tmp();
    const good = wenziLine('2026-03-01T00:00:00Z', '旧');
    const active = path.join(dir, 'conversation_history.jsonl');
    fs.writeFileSync(active, Buffer.concat([Buffer.from(`${good}\n`), Buffer.from(tail)]));
    const warn = vi.fn();
    const store = await HistoryStore.open({ dataDir: dir, warn });
    expect(store.openReport.tail.kind).toBe('quarantined');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/torn last line/));
    const rec = await store.log(newRecord());
    const parsed = parseJsonlText(fs.readFileSync(active, 'utf8'));
    expect(parsed.bad).toEqual([]);
    expect(parsed.records.map((r) => r.id)).toEqual([undefined, rec.id]);
    const q = fileLines(store.paths.quarantine).map((l) => JSON.parse(l) as { text?: string; text_base64?: string; source: string });
    expect(q).toHaveLength(1);
    expect(q[0]?.source).toBe('active');
    // The exact bytes: bytes that are not UTF-8 (half a character) are kept as base64, never as U+FFFD.
    const kept = q[0]?.text_base64 !== undefined ? Buffer.from(q[0].text_base64, 'base64') : Buffer.from(q[0]?.text ?? '');
    expect(kept.equals(Buffer.from(tail))).toBe(true);
  });

  it('keeps a complete last record that only lacks its newline', async () => {
    const dir = tmp();
    const active = path.join(dir, 'conversation_history.jsonl');
    fs.writeFileSync(active, wenziLine('2026-03-01T00:00:00Z'));
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    expect(store.openReport.tail.kind).toBe('newline-added');
    await store.log(newRecord());
    expect(parseJsonlText(fs.readFileSync(active, 'utf8')).records).toHaveLength(2);
  });

  it('a mid-file bad line is left on append and moved to quarantine on a rewrite', async () => {
    const dir = tmp();
    const active = path.join(dir, 'conversation_history.jsonl');
    fs.writeFileSync(active, `${wenziLine('2026-03-01T00:00:00Z', 'a')}\nGARBAGE\n`);
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    const rec = await store.log(newRecord());
    expect(fileLines(active)).toContain('GARBAGE');
    await store.update(rec.id, { final_text: 'edited' });
    expect(fileLines(active)).not.toContain('GARBAGE');
    expect(fileLines(store.paths.quarantine).map((l) => (JSON.parse(l) as { text: string }).text)).toEqual(['GARBAGE']);
  });
});

describe('HistoryStore update / delete', () => {
  it('updates and deletes active records, sets edited_at, keeps unknown fields', async () => {
    const dir = tmp();
    const active = path.join(dir, 'conversation_history.jsonl');
    fs.writeFileSync(active, `${wenziLine('2026-03-01T00:00:00Z', 'w', { correction_tracked: true })}\n`);
    const store = await HistoryStore.open({ dataDir: dir, now: () => new Date('2026-04-01T00:00:00Z'), ...quiet });
    const updated = await store.update('ts:2026-03-01T00:00:00Z', { final_text: '改' });
    expect(updated).toMatchObject({ final_text: '改', edited_at: '2026-04-01T00:00:00.000Z' });
    const raw = JSON.parse(fileLines(active)[0] ?? '') as Record<string, unknown>;
    expect(raw.correction_tracked).toBe(true);
    expect(raw).not.toHaveProperty('language'); // WenZi's shape is kept, no defaults written
    expect(await store.update('missing', { final_text: 'x' })).toBeNull();
    expect(await store.delete('ts:2026-03-01T00:00:00Z')).toBe(true);
    expect(fileLines(active)).toEqual([]);
    expect(await store.delete('ts:2026-03-01T00:00:00Z')).toBe(false);
  });

  it('updates and deletes archived records', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 2, rotateMinBytes: 0, ...quiet });
    const ts = minuteTimestamps('2026-01-31T23:58:00Z', 4);
    const recs = [];
    for (const t of ts) recs.push(await store.log(newRecord({ timestamp: t })));
    await store.settled();
    const jan = store.paths.archive('2026-01');
    expect(fileLines(jan)).toHaveLength(2);
    const first = recs[0];
    if (!first) throw new Error('no record');
    expect(await store.update(first.id, { final_text: 'archived edit' })).toMatchObject({ final_text: 'archived edit' });
    expect(fileLines(jan).some((l) => l.includes('archived edit'))).toBe(true);
    expect(await store.delete(first.id)).toBe(true);
    expect(fileLines(jan)).toHaveLength(1);
  });
});
