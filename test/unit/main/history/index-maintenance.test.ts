import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryIndex, IndexUnusableError } from '../../../../src/main/history/index/history-index.ts';
import { checkIndexAgainstFiles } from '../../../../src/main/history/index/index-sync.ts';
import { rec, row } from './index-fixtures.ts';

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  dbPath = path.join(dir, 'index.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('HistoryIndex maintenance', () => {
  it('upsert is idempotent, updates text in place and follows a changed timestamp', () => {
    const index = HistoryIndex.open(dbPath);
    const rows = [row(rec(1)), row(rec(2)), row(rec(3))];
    index.upsert(rows);
    index.upsert(rows);
    expect(index.count()).toBe(3);
    index.upsert([row(rec(2, { final_text: '改正后的文本 edited', edited_at: '2025-02-01T00:00:00Z' }))]);
    expect(index.query({ text: '改正后的' }).rows.map((r) => [r.key, r.edited_at])).toEqual([['R00000002', '2025-02-01T00:00:00Z']]);
    expect(index.query({ text: 'R2 old' }).total).toBe(0);
    // Moving a record in time moves it in the ordering.
    index.upsert([row(rec(1, { timestamp: '2026-01-01T00:00:00Z' }))]);
    expect(index.query({}).rows.map((r) => r.key)).toEqual(['R00000001', 'R00000003', 'R00000002']);
    expect(index.count()).toBe(3);
    index.close();
  });

  it('keeps time order for records sharing a millisecond and for unparseable timestamps', () => {
    const index = HistoryIndex.open(dbPath);
    const ts = '2025-03-01T00:00:00.000Z';
    const same = Array.from({ length: 1100 }, (_, i) => row(rec(i, { timestamp: ts })));
    index.upsert(same);
    index.upsert([row(rec(5000, { id: undefined, timestamp: 'not a time' }), 'unknown'), row(rec(5001, { timestamp: '2025-03-01T00:00:00.001Z' }))]);
    expect(index.count()).toBe(1102);
    const all = index.query({ includeArchived: true, pageSize: 500 });
    expect(all.total).toBe(1102);
    expect(all.rows[0]?.key).toBe('R00005001');
    const last = index.query({ includeArchived: true, text: 'plain', pageSize: 500, since: '1960-01-01T00:00:00Z', until: '1970-01-02T00:00:00Z' });
    expect(last.rows.map((r) => r.key)).toEqual(['ts:not a time']);
    index.close();
  });

  it('remove and moveToFile', () => {
    const index = HistoryIndex.open(dbPath);
    index.upsert([row(rec(1, { asr_text: '公园里的猫' })), row(rec(2, { asr_text: '公园里的狗' })), row(rec(3))]);
    index.moveToFile(['R00000001'], '2025-01');
    expect(index.query({ text: '公园里' }).rows.map((r) => r.key)).toEqual(['R00000002']);
    expect(index.query({ text: '公园里', includeArchived: true }).total).toBe(2);
    expect(index.count('2025-01')).toBe(1);
    index.remove(['R00000002', 'nope']);
    expect(index.query({ text: '公园里', includeArchived: true }).rows.map((r) => r.key)).toEqual(['R00000001']);
    expect(index.query({ text: '的狗', includeArchived: true }).total).toBe(0);
    expect(index.count()).toBe(2);
    index.close();
  });

  it('remembers file states', () => {
    const index = HistoryIndex.open(dbPath);
    expect(index.getFileState('active')).toBeUndefined();
    index.setFileState('active', { size: 10, mtimeMs: 1234.5, count: 2 });
    index.setFileState('active', { size: 20, mtimeMs: 1234.5, count: 3 });
    expect(index.getFileState('active')).toEqual({ size: 20, mtimeMs: 1234.5, count: 3 });
    index.close();
    const again = HistoryIndex.open(dbPath);
    expect(again.createdFresh).toBe(false);
    expect(again.getFileState('active')?.count).toBe(3);
    again.close();
  });
});

describe('damaged index.db', () => {
  function populated(): void {
    const index = HistoryIndex.open(dbPath);
    index.upsert(Array.from({ length: 3000 }, (_, i) => row(rec(i, { asr_text: `公园里 ${i} ${'填充'.repeat(40)}` }))));
    index.setFileState('active', { size: 1, mtimeMs: 1, count: 3000 });
    index.close();
  }

  it('throws IndexUnusableError for garbage, a truncated file, or a garbage header', async () => {
    populated();
    const size = fs.statSync(dbPath).size;
    fs.truncateSync(dbPath, Math.floor(size / 2));
    expect(() => HistoryIndex.open(dbPath)).toThrow(IndexUnusableError);
    expect(await checkIndexAgainstFiles(dbPath, dir)).toBe('corrupt');

    fs.writeFileSync(dbPath, Buffer.from('this is not a database at all, just garbage bytes '.repeat(200)));
    expect(() => HistoryIndex.open(dbPath)).toThrow(IndexUnusableError);

    fs.writeFileSync(dbPath, Buffer.alloc(50, 7));
    expect(() => HistoryIndex.open(dbPath)).toThrow(IndexUnusableError);
  });

  it('reports damage in the middle of the file when it is read', () => {
    populated();
    const fd = fs.openSync(dbPath, 'r+');
    const size = fs.fstatSync(fd).size;
    // Overwrite every page after the first few with garbage, keeping the header intact.
    const garbage = Buffer.alloc(size - 8192, 0xa5);
    fs.writeSync(fd, garbage, 0, garbage.length, 8192);
    fs.closeSync(fd);
    let error: unknown;
    try {
      const index = HistoryIndex.open(dbPath);
      index.query({ text: '公园里', includeArchived: true, pageSize: 500 });
      index.query({ includeArchived: true, pageSize: 500 });
      index.close();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(IndexUnusableError);
  });

  it('a deleted index is reported as missing (with history on disk) and recreated empty', async () => {
    fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), `${JSON.stringify(rec(1))}\n`);
    expect(await checkIndexAgainstFiles(dbPath, dir)).toBe('missing');
    const index = HistoryIndex.open(dbPath);
    expect(index.createdFresh).toBe(true);
    expect(await checkIndexAgainstFiles(index, dir)).toBe('missing');
    index.close();
  });
});
