import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../../../../src/main/history/store/history-store.ts';
import { archiveMonthOf } from '../../../../../src/main/history/rotation/rotation.ts';
import { fileLines, minuteTimestamps, newRecord, quiet, useTempDirs, wenziLine } from '../../../../helpers/history-fixtures.ts';

const tmp = useTempDirs();

/** Writes `n` tiny WenZi-style lines straight to the active file (fast setup for the real 20,000 boundary). */
function seedActive(file: string, timestamps: readonly string[]): void {
  fs.writeFileSync(file, `${timestamps.map((t) => JSON.stringify({ timestamp: t, asr_text: '', final_text: '' })).join('\n')}\n`);
}

describe('archiveMonthOf', () => {
  it('takes the UTC month, unknown when unparseable', () => {
    expect(archiveMonthOf('2026-03-12T10:30:00+00:00')).toBe('2026-03');
    expect(archiveMonthOf('2026-03-31T23:30:00-05:00')).toBe('2026-04');
    expect(archiveMonthOf('yesterday')).toBe('unknown');
    expect(archiveMonthOf(undefined)).toBe('unknown');
  });
});

describe('rotation, seed rules', () => {
  it('20,001 tiny records under 4 MB do NOT rotate (size guard)', async () => {
    const dir = tmp();
    const store0 = await HistoryStore.open({ dataDir: dir, ...quiet });
    seedActive(store0.paths.active, minuteTimestamps('2025-01-01T00:00:00Z', 20_000));
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    expect(fs.statSync(store.paths.active).size).toBeLessThan(4 * 1024 * 1024);
    await store.log(newRecord());
    await store.settled();
    expect(fileLines(store.paths.active)).toHaveLength(20_001);
    expect(fs.existsSync(store.paths.archivesDir)).toBe(false);
  });

  it('real boundary: 20,000 kept; 20,001 rotates exactly one (4 MB reached)', async () => {
    const dir = tmp();
    const store0 = await HistoryStore.open({ dataDir: dir, ...quiet });
    // ~220-byte lines: 19,999 of them plus padding pass 4 MB.
    const ts = minuteTimestamps('2025-12-31T00:00:00Z', 19_999);
    fs.writeFileSync(store0.paths.active, `${ts.map((t) => wenziLine(t, 'x'.repeat(200))).join('\n')}\n`);
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.log(newRecord({ timestamp: '2026-02-01T00:00:00Z', asr_text: 'y'.repeat(300) }));
    await store.settled();
    expect(fs.statSync(store.paths.active).size).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(fileLines(store.paths.active)).toHaveLength(20_000);
    expect(fs.existsSync(store.paths.archivesDir)).toBe(false);
    await store.log(newRecord({ timestamp: '2026-02-01T00:01:00Z' }));
    await store.settled();
    expect(fileLines(store.paths.active)).toHaveLength(20_000);
    const dec = fileLines(store.paths.archive('2025-12'));
    expect(dec).toHaveLength(1);
    expect(JSON.parse(dec[0] ?? '')).toMatchObject({ timestamp: ts[0] });
  }, 30_000);

  it('groups by month, unknown.jsonl for bad timestamps, appends across two rotations in one month, invalidates caches', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 3, rotateMinBytes: 0, ...quiet });
    await store.log(newRecord({ timestamp: 'not a time' }));
    await store.log(newRecord({ timestamp: '2026-01-10T00:00:00Z' }));
    await store.log(newRecord({ timestamp: '2026-01-20T00:00:00Z' }));
    await store.getRecent({ mode: 'proofread', n: 10 });
    expect(store.hotCacheWarm).toBe(true);
    const before = store.changeCounter;
    await store.log(newRecord({ timestamp: '2026-02-01T00:00:00Z' })); // 4 > 3: first rotation
    await store.settled();
    expect(store.hotCacheWarm).toBe(false);
    expect(store.changeCounter).toBeGreaterThan(before + 1);
    expect(fileLines(store.paths.archive('unknown'))).toHaveLength(1);
    await store.log(newRecord({ timestamp: '2026-02-02T00:00:00Z' })); // second rotation, same month file
    await store.log(newRecord({ timestamp: '2026-02-03T00:00:00Z' })); // third
    await store.settled();
    const jan = fileLines(store.paths.archive('2026-01')).map((l) => (JSON.parse(l) as { timestamp: string }).timestamp);
    expect(jan).toEqual(['2026-01-10T00:00:00Z', '2026-01-20T00:00:00Z']);
    expect(fileLines(store.paths.active)).toHaveLength(3);
  });

  it('a due rotation waits for a quiet moment (then runs by itself), but never longer than the cap', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 3, rotateMinBytes: 0, rotationQuietMs: 150, rotationMaxDeferMs: 600, ...quiet });
    for (let i = 0; i < 5; i++) await store.log(newRecord());
    // Due since the 4th record, but appends keep coming: nothing rewritten yet.
    expect(fileLines(store.paths.active)).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 400));
    await store.settled();
    expect(fileLines(store.paths.active)).toHaveLength(3);
    expect(fs.readdirSync(store.paths.archivesDir)).toHaveLength(1);
    // A steady stream (an append every 50 ms, never 150 ms quiet) still rotates once the 600 ms cap passes.
    const started = Date.now();
    let rotatedAfter: number | null = null;
    while (Date.now() - started < 1500 && rotatedAfter === null) {
      await store.log(newRecord());
      await new Promise((r) => setTimeout(r, 50));
      if (fileLines(store.paths.active).length === 3) rotatedAfter = Date.now() - started;
    }
    expect(rotatedAfter).not.toBeNull();
    expect(rotatedAfter).toBeGreaterThanOrEqual(550);
    // settled() (and close) runs a still-deferred check at once.
    await store.log(newRecord());
    await store.log(newRecord());
    await store.log(newRecord());
    await store.log(newRecord());
    expect(fileLines(store.paths.active).length).toBeGreaterThan(3);
    await store.settled();
    expect(fileLines(store.paths.active)).toHaveLength(3);
  });

  it('counts once, then tracks: no full read per write', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 100, rotateMinBytes: 0, ...quiet });
    await store.log(newRecord());
    const spy = vi.spyOn(fs.promises, 'readFile');
    for (let i = 0; i < 5; i++) await store.log(newRecord());
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('finishes a rotation interrupted after the archive append (no loss, no duplicate)', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 2, rotateMinBytes: 0, ...quiet });
    const ts = minuteTimestamps('2026-05-01T00:00:00Z', 3);
    seedActive(store.paths.active, ts);
    // Simulate the crash: intent written, archive appended, active not yet replaced.
    fs.mkdirSync(store.paths.journalDir, { recursive: true });
    fs.writeFileSync(`${store.paths.journalDir}/rotation.intent.json`, JSON.stringify({ version: 1, created_at: '', moves: [{ key: `ts:${ts[0]}`, month: '2026-05' }] }));
    fs.mkdirSync(store.paths.archivesDir, { recursive: true });
    fs.writeFileSync(store.paths.archive('2026-05'), fs.readFileSync(store.paths.active, 'utf8').split('\n')[0] + '\n');
    const reopened = await HistoryStore.open({ dataDir: dir, maxRecords: 2, rotateMinBytes: 0, ...quiet });
    expect(reopened.openReport.recoveredRotation?.moves).toHaveLength(1);
    expect(fileLines(reopened.paths.archive('2026-05'))).toHaveLength(1);
    expect(fileLines(reopened.paths.active)).toHaveLength(2);
    expect(fs.existsSync(`${store.paths.journalDir}/rotation.intent.json`)).toBe(false);
  });
});
