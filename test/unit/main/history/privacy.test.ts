import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportHistory, toCsv } from '../../../../src/main/history/import-export/export.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { deleteAll, deleteDay, sweepRetention } from '../../../../src/main/history/privacy.ts';
import { importWenziFolder } from '../../../../src/main/history/import-export/wenzi-import.ts';
import { fileLines, newRecord, quiet, useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';

const tmp = useTempDirs();

describe('privacy', () => {
  it('retention sweep and delete-a-day reach archives; delete all empties everything', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, maxRecords: 2, rotateMinBytes: 0, ...quiet });
    for (const t of ['2026-01-01T10:00:00Z', '2026-02-01T15:30:00Z', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z']) await store.log(newRecord({ timestamp: t }));
    await store.settled();
    expect(fileLines(store.paths.archive('2026-01'))).toHaveLength(1);
    expect(await sweepRetention(store, 40, new Date('2026-03-05T00:00:00Z'))).toBe(1);
    expect(fileLines(store.paths.archive('2026-01'))).toHaveLength(0);
    // 2026-02-01T15:30Z is 2026-02-01 23:30 in UTC+8 and 2026-02-02 00:30 in UTC+9.
    expect(await deleteDay(store, '2026-02-02', 540)).toBe(1);
    await deleteAll(store);
    expect(fileLines(store.paths.active)).toEqual([]);
    expect(fs.existsSync(store.paths.archive('2026-02'))).toBe(false);
  });

  it('exports JSONL and CSV with proper quoting and optional BOM', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.log(newRecord({ final_text: 'a, "b"\nc' }));
    expect(await exportHistory(store, path.join(dir, 'out.jsonl'), 'jsonl')).toBe(1);
    await exportHistory(store, path.join(dir, 'out.csv'), 'csv', { bom: true });
    const csv = fs.readFileSync(path.join(dir, 'out.csv'), 'utf8');
    expect(csv.startsWith('\uFEFFid,timestamp')).toBe(true);
    expect(csv).toContain('"a, ""b""\nc"');
    expect(toCsv([])).toBe(`${'id,timestamp,asr_text,enhanced_text,final_text,enhance_mode,preview_enabled,stt_model,llm_model,user_corrected,audio_duration,language,source,outcome,edited_at'}\r\n`);
  });

  it('imports a WenZi folder without duplicates, archives to their months', async () => {
    const wenzi = tmp();
    fs.writeFileSync(path.join(wenzi, 'conversation_history.jsonl'), `${wenziLine('2026-03-01T00:00:00Z', 'a')}\n${wenziLine('2026-03-02T00:00:00Z', 'b')}\nBAD\n`);
    fs.mkdirSync(path.join(wenzi, 'conversation_history_archives'));
    fs.writeFileSync(path.join(wenzi, 'conversation_history_archives', '2025-11.jsonl'), `${wenziLine('2025-11-05T00:00:00Z', 'old')}\n`);
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.log(newRecord({ timestamp: '2026-02-15T00:00:00Z' }));
    // The unreadable line is counted and named with its number (the source is left as it is).
    const unreadable = [{ path: path.join(wenzi, 'conversation_history.jsonl'), line: 3, reason: expect.stringMatching(/invalid JSON/) }];
    expect(await importWenziFolder(store, wenzi)).toEqual({ imported: 3, duplicates: 0, badLines: 1, unreadable });
    expect(await importWenziFolder(store, wenzi)).toEqual({ imported: 0, duplicates: 3, badLines: 1, unreadable });
    expect(fileLines(store.paths.archive('2025-11'))).toHaveLength(1);
    expect((await store.readFile('active')).map((r) => r.timestamp)).toEqual(['2026-02-15T00:00:00Z', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z']);
  });
});

describe('HistoryService', () => {
  it('off writes nothing; on keeps the real index in step and rebuilds a deleted index at start-up', async () => {
    const dir = tmp();
    let enabled = false;
    const svc = await HistoryService.open({ dataDir: dir, enabled: () => enabled, rebuildInline: true, maxRecords: 2, rotateMinBytes: 0, ...quiet });
    const off = await svc.log(newRecord());
    expect(off.saved).toBe(false);
    expect(fs.existsSync(svc.store.paths.active) && fileLines(svc.store.paths.active).length).toBeFalsy();
    enabled = true;
    for (const t of ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z']) await svc.log(newRecord({ timestamp: t }));
    await svc.settled();
    const idx = svc.indexOrNull;
    expect(idx?.count()).toBe(3);
    expect(idx?.count('active')).toBe(2);
    expect(idx?.count('2026-01')).toBe(1);
    await svc.close();
    fs.rmSync(svc.store.paths.indexDb);
    const again = await HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, ...quiet });
    expect(again.indexOrNull?.count()).toBe(3);
    await again.close();
  });
});
