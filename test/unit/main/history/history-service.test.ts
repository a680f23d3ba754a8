import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { parseJsonlLines } from '../../../../src/main/history/store/jsonl-reader.ts';
import { recordKey } from '../../../../src/shared/history/record.ts';
import { minuteTimestamps, newRecord, quiet, useTempDirs } from '../../../helpers/history-fixtures.ts';

const tmp = useTempDirs();

/** Index rows per file must equal a replay of the JSONL files. */
async function expectIndexMatchesFiles(svc: HistoryService): Promise<void> {
  const index = svc.indexOrNull;
  expect(index).not.toBeNull();
  let total = 0;
  for (const file of await svc.store.listFiles()) {
    const keys = parseJsonlLines(fs.existsSync(svc.store.pathOf(file)) ? fs.readFileSync(svc.store.pathOf(file), 'utf8') : '').flatMap((l) => (l.kind === 'record' ? [recordKey(l.record)] : []));
    expect(new Set(index?.keysOfFile(file)), file).toEqual(new Set(keys));
    total += keys.length;
  }
  expect(index?.count()).toBe(total);
}

describe('HistoryService', () => {
  it('records logged (and rotated) while a background rebuild runs are in the index after the swap', async () => {
    const dir = tmp();
    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, maxRecords: 5, rotateMinBytes: 0, ...quiet });
    const ts = minuteTimestamps('2026-01-31T23:50:00Z', 30);
    for (const t of ts.slice(0, 10)) await svc.log(newRecord({ timestamp: t }));
    const rebuild = svc.rebuildIndex();
    // Appends do not wait for the rebuild (it no longer holds the write queue).
    for (const t of ts.slice(10)) await svc.log(newRecord({ timestamp: t }));
    await rebuild;
    await svc.settled();
    await expectIndexMatchesFiles(svc);
    expect(svc.indexOrNull?.count()).toBe(30);
    await svc.close();
  });

  it('the index names the file of a key; update/delete of an archived record keep the index in step', async () => {
    const dir = tmp();
    const svc = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, maxRecords: 2, rotateMinBytes: 0, ...quiet });
    const recs = [];
    for (const t of ['2026-01-10T00:00:00Z', '2026-02-10T00:00:00Z', '2026-03-10T00:00:00Z', '2026-04-10T00:00:00Z']) recs.push(await svc.log(newRecord({ timestamp: t })));
    await svc.settled();
    const jan = recs[0]?.record.id ?? '';
    expect(svc.fileOfKey(jan)).toBe('2026-01');
    expect(await svc.update(jan, { final_text: 'edited in January' })).toMatchObject({ final_text: 'edited in January' });
    expect(fs.readFileSync(svc.store.pathOf('2026-01'), 'utf8')).toContain('edited in January');
    expect(await svc.delete(jan)).toBe(true);
    await expectIndexMatchesFiles(svc);
    await svc.close();
  });
});
