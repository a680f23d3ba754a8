import { describe, expect, it } from 'vitest';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { sweepOnce } from '../../../../src/main/history/retention-schedule.ts';
import { newRecord, quiet, useTempDirs } from '../../../helpers/history-fixtures.ts';

/** The scheduled sweep (what the app runs at start and daily) keeps records written with the clock behind (privacy.ts). */

const tmp = useTempDirs();

describe('sweepOnce', () => {
  it("keeps the reviewer's records dictated with the clock 17 months back, removes what is really old, and keeps the index in step", async () => {
    const svc = await HistoryService.open({ dataDir: tmp(), enabled: () => true, rebuildInline: true, ...quiet });
    for (const t of ['2026-09-01T00:00:00.000Z', '2026-11-20T09:00:00.000Z', '2025-06-27T09:50:00.000Z', '2025-06-27T09:52:00.000Z', '2026-11-27T09:58:00.000Z']) {
      await svc.log(newRecord({ timestamp: t, final_text: `dictated at ${t}` }));
    }
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), error: (m: string) => lines.push(`error: ${m}`) };
    expect(await sweepOnce(svc, 30, log, new Date('2026-11-27T10:00:00.000Z'))).toBe(1);
    expect(lines).toEqual(['retention sweep removed old records']);
    expect((await svc.query({ text: '2025-06-27', pageSize: 10 })).total).toBe(2);
    expect((await svc.query({ text: '2026-09-01', pageSize: 10 })).total).toBe(0);
    await svc.close();
  });
});
