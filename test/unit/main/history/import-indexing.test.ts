import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { importWenziFolder } from '../../../../src/main/history/import-export/wenzi-import.ts';
import { rebuildPays } from '../../../../src/main/history/import-export/wenzi-import-indexed.ts';
import { newRecord, useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';
import { writeMinuteWenziFolder } from '../../../helpers/wenzi-folder.ts';

/**
 * `HistoryService.importWenzi`, the one import of the app and the CLI: a big import stops mirroring into
 * the index and rebuilds it in the worker afterwards, so the main thread (Electron's IPC loop) keeps
 * answering; a small one is mirrored row by row. Before, the app's import mirrored every record into
 * the index on the main thread (~126 µs each), in transactions of up to 50,000 rows.
 */

const tmp = useTempDirs();

/** A WenZi folder of `n` records one minute apart from `start`; WenZi keys are timestamps. */
function wenziFolder(n: number, tag = 'r', start = Date.UTC(2024, 0, 1)): string {
  return writeMinuteWenziFolder(tmp(), n, (i, ts) => wenziLine(ts, `${tag} 第${i}条，今天和萍萍讨论了 Orion${i % 977} 的进度`), start);
}

/** A data folder holding `n` dictations of its own, indexed, and the service over it. */
async function serviceWith(n: number): Promise<HistoryService> {
  const dir = tmp();
  const own = Array.from({ length: n }, (_, i) => wenziLine(new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), `own ${i}`));
  if (n > 0) fs.writeFileSync(path.join(dir, 'conversation_history.jsonl'), `${own.join('\n')}\n`);
  return HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, follow: false, warn: () => undefined });
}

/** Event-loop delay while `work` runs, and how long it took. */
async function lagDuring(work: () => Promise<unknown>): Promise<{ p99Ms: number; maxMs: number; seconds: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t = performance.now();
  await work();
  const seconds = (performance.now() - t) / 1000;
  h.disable();
  return { p99Ms: h.percentile(99) / 1e6, maxMs: h.max / 1e6, seconds };
}

const N = 60_000;

describe('a big WenZi import rebuilds the index in its worker instead of mirroring row by row', () => {
  it(`${N} records: the rebuild path is taken, the index matches, and the main thread keeps answering (p99 lag < 100 ms)`, async () => {
    const folder = wenziFolder(N);

    const svc = await serviceWith(500);
    let indexing = '';
    const bulk = await lagDuring(async () => {
      indexing = (await svc.importWenzi(folder)).indexing;
      await svc.settled();
    });
    expect(indexing).toBe('rebuilt');
    expect(svc.indexStale).toBe(false);
    expect((await svc.query({ text: '', includeArchived: true, pageSize: 1 })).total).toBe(N + 500);
    const hit = await svc.query({ text: 'r 第45678条', includeArchived: true, pageSize: 10 });
    expect(hit.rows.map((r) => r.final_text)).toEqual(['r 第45678条，今天和萍萍讨论了 Orion736 的进度']);
    await svc.close();

    // The app's import before: importWenziFolder on the live store, every batch mirrored into the index on the main thread.
    const old = await serviceWith(500);
    const rows = await lagDuring(async () => {
      await importWenziFolder(old.store, folder);
      await old.settled();
    });
    expect((await old.query({ text: '', includeArchived: true, pageSize: 1 })).total).toBe(N + 500);
    await old.close();

    const figures = `rebuilt: ${bulk.seconds.toFixed(1)} s, lag p99 ${bulk.p99Ms.toFixed(0)} ms, max ${bulk.maxMs.toFixed(0)} ms; row by row: ${rows.seconds.toFixed(1)} s, lag p99 ${rows.p99Ms.toFixed(0)} ms, max ${rows.maxMs.toFixed(0)} ms`;
    console.log(figures);
    expect(bulk.p99Ms, figures).toBeLessThan(100);
    // Row by row, one batch's transaction holds the main thread for seconds.
    expect(rows.maxMs, figures).toBeGreaterThan(1000);
  }, 240_000);

  it('re-importing the same folder finds only duplicates: the changed files are read back, no rebuild; a small import is mirrored row by row', async () => {
    const folder = wenziFolder(25_000, 'dup');
    const svc = await serviceWith(0);
    expect((await svc.importWenzi(folder)).indexing).toBe('rebuilt');
    await svc.settled();
    const again = await svc.importWenzi(folder);
    expect(again).toEqual({ report: { imported: 0, duplicates: 25_000, badLines: 0 }, indexing: 'caught-up' });
    expect(svc.indexStale).toBe(false);
    expect((await svc.query({ text: '', includeArchived: true, pageSize: 1 })).total).toBe(25_000);

    const small = wenziFolder(300, 'small', Date.UTC(2025, 5, 1));
    expect((await svc.importWenzi(small)).indexing).toBe('row-by-row');
    expect((await svc.query({ text: '', includeArchived: true, pageSize: 1 })).total).toBe(25_300);
    expect((await svc.query({ text: 'small 第299条', includeArchived: true, pageSize: 5 })).rows).toHaveLength(1);
    // A dictation logged after an import is mirrored as usual.
    await svc.log(newRecord({ asr_text: 'after import', final_text: 'after import' }));
    expect((await svc.query({ text: 'after import', includeArchived: true, pageSize: 5 })).rows).toHaveLength(1);
    await svc.close();
  }, 120_000);

  it('the rule: at least 20,000 records and at least half of what is indexed', () => {
    expect(rebuildPays(19_999, 0)).toBe(false);
    expect(rebuildPays(20_000, 0)).toBe(true);
    expect(rebuildPays(20_000, 40_000)).toBe(true);
    expect(rebuildPays(20_000, 40_001)).toBe(false);
  });
});
