import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { expiredByWriteOrder, readSweepMarks, sweepRetention, SWEEPS_FILE } from '../../../../src/main/history/privacy.ts';
import type { StoredRecord } from '../../../../src/shared/history/record.ts';
import { fileLines, newRecord, quiet, useTempDirs } from '../../../helpers/history-fixtures.ts';

/**
 * Retention never deletes a record written within the retention period, whatever the clock said when
 * it was written (src/main/history/privacy.ts explains the dating by write order). Real HistoryStore,
 * real files; the clock is the timestamps the records are logged with and the sweep's `now`.
 */

const tmp = useTempDirs();

async function storeWith(timestamps: readonly string[], opts: { maxRecords?: number } = {}): Promise<HistoryStore> {
  const store = await HistoryStore.open({ dataDir: tmp(), ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords, rotateMinBytes: 0 } : {}), ...quiet });
  for (const t of timestamps) await store.log(newRecord({ timestamp: t, final_text: `dictated at ${t}` }));
  await store.settled();
  return store;
}

async function timestampsOnDisk(store: HistoryStore): Promise<string[]> {
  const out: string[] = [];
  for (const file of await store.listFiles()) out.push(...(await store.readFile(file)).map((r) => r.timestamp));
  return out;
}

describe('retention by the age of the write', () => {
  it("the reviewer's case: records dictated with the clock 17 months back, then the clock corrected: a 30-day sweep keeps them", async () => {
    const store = await storeWith([
      '2026-11-10T09:00:00.000Z',
      '2026-11-20T09:00:00.000Z',
      // The clock jumped back 17 months: two dictations minutes apart.
      '2025-06-27T09:50:00.000Z',
      '2025-06-27T09:52:00.000Z',
      // The clock is corrected.
      '2026-11-27T09:58:00.000Z',
    ]);
    expect(await sweepRetention(store, 30, new Date('2026-11-27T10:00:00.000Z'))).toBe(0);
    // Kept, with the timestamps they were written with (never silently changed).
    expect(await timestampsOnDisk(store)).toEqual([
      '2026-11-10T09:00:00.000Z',
      '2026-11-20T09:00:00.000Z',
      '2025-06-27T09:50:00.000Z',
      '2025-06-27T09:52:00.000Z',
      '2026-11-27T09:58:00.000Z',
    ]);
    await store.close();
  });

  it('with nothing kept before them, records written with the clock behind are kept until the period has really passed (each sweep remembers when it ran)', async () => {
    const store = await storeWith(['2026-08-01T00:00:00.000Z']);
    expect(await sweepRetention(store, 30, new Date('2026-10-01T00:00:00.000Z'))).toBe(1);
    expect(await timestampsOnDisk(store)).toEqual([]);
    // The clock jumped back 17 months: two dictations; then it is corrected.
    await store.log(newRecord({ timestamp: '2025-05-01T10:00:00.000Z' }));
    await store.log(newRecord({ timestamp: '2025-05-01T10:02:00.000Z' }));
    expect(await sweepRetention(store, 30, new Date('2026-10-02T00:00:00.000Z'))).toBe(0);
    expect(await sweepRetention(store, 30, new Date('2026-10-20T00:00:00.000Z'))).toBe(0);
    expect(await timestampsOnDisk(store)).toEqual(['2025-05-01T10:00:00.000Z', '2025-05-01T10:02:00.000Z']);
    // More than 30 days after the sweep that came before them: they really are that old now.
    expect(await sweepRetention(store, 30, new Date('2026-11-02T00:00:00.000Z'))).toBe(2);
    // What a sweep remembers stays small: sweeps older than the cutoff are dropped.
    expect(readSweepMarks(path.join(store.paths.dataDir, SWEEPS_FILE)).map((m) => new Date(m.at).toISOString())).toEqual([
      '2026-10-20T00:00:00.000Z',
      '2026-11-02T00:00:00.000Z',
    ]);
    await store.close();
  });

  it('the normal case still deletes old records, and only those', async () => {
    const store = await storeWith(['2026-08-01T00:00:00.000Z', '2026-09-15T00:00:00.000Z', '2026-10-29T09:00:00.000Z', '2026-11-20T00:00:00.000Z', '2026-11-27T09:00:00.000Z']);
    expect(await sweepRetention(store, 30, new Date('2026-11-27T10:00:00.000Z'))).toBe(2);
    expect(await timestampsOnDisk(store)).toEqual(['2026-10-29T09:00:00.000Z', '2026-11-20T00:00:00.000Z', '2026-11-27T09:00:00.000Z']);
    await store.close();
  });

  it('old records before recent ones go; clock-behind records after recent ones stay; undatable ones stay', async () => {
    const store = await storeWith(['2026-08-01T00:00:00.000Z', 'not a time', '2026-09-01T00:00:00.000Z', '2026-11-20T00:00:00.000Z', '2025-06-27T09:50:00.000Z']);
    expect(await sweepRetention(store, 30, new Date('2026-11-27T10:00:00.000Z'))).toBe(2);
    expect(await timestampsOnDisk(store)).toEqual(['not a time', '2026-11-20T00:00:00.000Z', '2025-06-27T09:50:00.000Z']);
    await store.close();
  });

  it('archives: old archived records are deleted; a clock-behind record rotated after a kept one in its month file stays', async () => {
    // Seven-day retention; the clock went back ten days for one dictation (same month), then was corrected.
    const store = await storeWith(
      ['2026-10-01T00:00:00.000Z', '2026-11-25T08:00:00.000Z', '2026-11-15T08:00:00.000Z', '2026-11-26T08:00:00.000Z', '2026-11-27T08:00:00.000Z'],
      { maxRecords: 2 },
    );
    // Rotation moved the first three, in write order, into their month files.
    expect(fileLines(store.paths.archive('2026-10'))).toHaveLength(1);
    expect((await store.readFile('2026-11')).map((r) => r.timestamp)).toEqual(['2026-11-25T08:00:00.000Z', '2026-11-15T08:00:00.000Z']);
    expect(await sweepRetention(store, 7, new Date('2026-11-27T12:00:00.000Z'))).toBe(1);
    expect(fileLines(store.paths.archive('2026-10'))).toHaveLength(0);
    expect((await store.readFile('2026-11')).map((r) => r.timestamp)).toEqual(['2026-11-25T08:00:00.000Z', '2026-11-15T08:00:00.000Z']);
    await store.close();
  });

  it('a clock that ran ahead: the future record and those after it are kept (longer than asked, never early)', async () => {
    const store = await storeWith(['2026-08-01T00:00:00.000Z', '2027-11-27T00:00:00.000Z', '2026-10-01T00:00:00.000Z']);
    expect(await sweepRetention(store, 30, new Date('2026-11-27T10:00:00.000Z'))).toBe(1);
    expect(await timestampsOnDisk(store)).toEqual(['2027-11-27T00:00:00.000Z', '2026-10-01T00:00:00.000Z']);
    await store.close();
  });
});

describe('the remembered sweeps file', () => {
  it('a FIFO in its place is read as no sweeps at once, never waited on', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-sweeps-'));
    try {
      const file = path.join(dir, SWEEPS_FILE);
      execFileSync('mkfifo', [file]);
      const started = Date.now();
      expect(readSweepMarks(file)).toEqual([]);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('expiredByWriteOrder', () => {
  const rec = (timestamp: string, id: string): StoredRecord => ({ ...newRecord({ timestamp }), id }) as StoredRecord;
  const cutoff = Date.parse('2026-10-28T00:00:00.000Z');

  it('is the leading run of records whose newest timestamp so far is before the cutoff', () => {
    expect(expiredByWriteOrder([rec('2026-01-01T00:00:00Z', 'a'), rec('2026-02-01T00:00:00Z', 'b'), rec('2026-11-01T00:00:00Z', 'c'), rec('2026-01-02T00:00:00Z', 'd')], cutoff)).toEqual(['a', 'b']);
    expect(expiredByWriteOrder([rec('2026-11-01T00:00:00Z', 'c'), rec('2026-01-02T00:00:00Z', 'd')], cutoff)).toEqual([]);
    expect(expiredByWriteOrder([], cutoff)).toEqual([]);
  });

  it("a remembered sweep raises the dating after its last record, or from the start when that record is gone", () => {
    const at = Date.parse('2026-11-01T00:00:00.000Z');
    const records = [rec('2026-01-01T00:00:00Z', 'a'), rec('2026-01-02T00:00:00Z', 'b'), rec('2025-01-01T00:00:00Z', 'c')];
    expect(expiredByWriteOrder(records, cutoff, [{ at, lastKey: 'a' }])).toEqual(['a']);
    expect(expiredByWriteOrder(records, cutoff, [{ at, lastKey: 'gone' }])).toEqual([]);
    expect(expiredByWriteOrder(records, cutoff, [{ at, lastKey: null }])).toEqual([]);
    expect(expiredByWriteOrder(records, cutoff, [{ at: Date.parse('2026-06-01T00:00:00Z'), lastKey: null }])).toEqual(['a', 'b', 'c']);
  });

  it('skips what it cannot date, without ending the run', () => {
    expect(expiredByWriteOrder([rec('2026-01-01T00:00:00Z', 'a'), rec('garbage', 'x'), rec('2026-02-01T00:00:00Z', 'b')], cutoff)).toEqual(['a', 'b']);
  });
});
