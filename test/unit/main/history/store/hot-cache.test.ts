import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../../src/main/history/store/history-store.ts';
import { readTailRecords } from '../../../../../src/main/history/store/hot-cache.ts';
import { minuteTimestamps, newRecord, quiet, useTempDirs, wenziLine } from '../../../../helpers/history-fixtures.ts';

const tmp = useTempDirs();

describe('hot cache and getRecent', () => {
  it('reads the last N records from the tail in small chunks, skipping bad lines', async () => {
    const dir = tmp();
    const f = `${dir}/x.jsonl`;
    const ts = minuteTimestamps('2026-01-01T00:00:00Z', 500);
    fs.writeFileSync(f, `${ts.map((t, i) => (i === 498 ? 'BAD' : wenziLine(t, `第${i}条`))).join('\n')}\n`);
    const recs = await readTailRecords(f, 200, 97);
    expect(recs).toHaveLength(200);
    expect(recs[0]?.timestamp).toBe(ts[299]);
    expect(recs.at(-1)?.timestamp).toBe(ts[499]);
  });

  it('per mode, preview-confirmed only, >500 chars skipped, oldest first, no disk once warm', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    await store.log(newRecord({ final_text: 'p1' }));
    await store.log(newRecord({ final_text: 'direct', preview_enabled: false }));
    await store.log(newRecord({ final_text: 'translate', enhance_mode: 'translate' }));
    await store.log(newRecord({ final_text: 'x'.repeat(501) }));
    await store.log(newRecord({ final_text: 'cancelled', outcome: 'cancelled' }));
    await store.log(newRecord({ final_text: 'p2' }));
    await store.log(newRecord({ final_text: 'p3' }));
    const recent = await store.getRecent({ mode: 'proofread', n: 2 });
    expect(recent.map((r) => r.final_text)).toEqual(['p2', 'p3']);
    // Warm: delete the file; the cache still answers and stays in step with log().
    fs.rmSync(store.paths.active);
    const c = store.changeCounter;
    await store.log(newRecord({ final_text: 'p4' }));
    expect(store.changeCounter).toBe(c + 1);
    expect((await store.getRecent({ mode: 'proofread', n: 10 })).map((r) => r.final_text)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect((await store.getRecent({ mode: 'translate', n: 10 })).map((r) => r.final_text)).toEqual(['translate']);
  });

  it('is kept in step by update and delete', async () => {
    const dir = tmp();
    const store = await HistoryStore.open({ dataDir: dir, ...quiet });
    const a = await store.log(newRecord({ final_text: 'a' }));
    const b = await store.log(newRecord({ final_text: 'b' }));
    await store.getRecent({ mode: 'proofread', n: 5 });
    await store.update(a.id, { final_text: 'A' });
    await store.delete(b.id);
    expect(store.lastAppendedKey).toBe(b.id);
    expect((await store.getRecent({ mode: 'proofread', n: 5 })).map((r) => r.final_text)).toEqual(['A']);
  });
});
