import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../../src/main/history/store/history-store.ts';
import { parseJsonlLine } from '../../../../../src/main/history/store/jsonl-reader.ts';
import { importWenziFolder, placeActive } from '../../../../../src/main/history/import-export/wenzi-import.ts';
import { recordKey, type StoredRecord } from '../../../../../src/shared/history/record.ts';
import { fileLines, newRecord, quiet, useTempDirs, wenziLine } from '../../../../helpers/history-fixtures.ts';
import { writeWenziFolder } from '../../../../helpers/wenzi-folder.ts';

/**
 * WenZi's records (object `input_context`, fields Tingxie does not know) are read and
 * kept byte for byte, and an import leaves the active file exactly as WenZi's rotation would (the newest
 * 20,000 by timestamp), the rest in month archives, nothing lost or duplicated.
 */

const tmp = useTempDirs();

/** Every record line of the store's files, with the file it is in. */
function storeLines(store: HistoryStore): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const f of fileLines(store.paths.active)) out.push({ file: 'active', text: f });
  const dir = store.paths.archivesDir;
  if (fs.existsSync(dir)) for (const n of fs.readdirSync(dir).sort()) for (const t of fileLines(path.join(dir, n))) out.push({ file: n.replace(/\.jsonl$/, ''), text: t });
  return out;
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe('WenZi record shapes (item 1)', () => {
  const cases: readonly { name: string; input_context: unknown }[] = [
    { name: 'object (WenZi since March 2026)', input_context: { app_name: 'Slack', bundle_id: 'com.tinyspeck.slackmacgap' } },
    { name: 'object, detailed level with extra keys', input_context: { app_name: 'Chrome', bundle_id: 'com.google.Chrome', window_title: 'PR #12', browser_domain: 'github.com' } },
    { name: 'object with non-string values', input_context: { app_name: null, pid: 4242 } },
    { name: 'string (older files)', input_context: 'Terminal' },
    { name: 'null (input context off)', input_context: null },
    { name: 'absent', input_context: undefined },
  ];
  for (const c of cases) {
    it(`reads input_context: ${c.name}, keeping it and unknown fields as they were`, () => {
      const line = wenziLine('2026-03-20T08:00:00.123456+00:00', '你好', { input_context: c.input_context, wenzi_future: { a: [1, 'x'] } });
      const parsed = parseJsonlLine(line);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.record.input_context).toEqual(c.input_context);
      expect((parsed.record as Record<string, unknown>).wenzi_future).toEqual({ a: [1, 'x'] });
    });
  }

  it('an edit keeps the object input_context and unknown fields', async () => {
    const wenzi = tmp();
    const line = wenziLine('2026-03-20T08:00:00.000001+00:00', '你好', { input_context: { app_name: 'Slack', bundle_id: 'b' }, wenzi_future: { score: 1.5 } });
    fs.writeFileSync(path.join(wenzi, 'conversation_history.jsonl'), `${line}\n`);
    const store = await HistoryStore.open({ dataDir: tmp(), ...quiet });
    expect(await importWenziFolder(store, wenzi)).toEqual({ imported: 1, duplicates: 0, badLines: 0 });
    const [rec] = await store.readFile('active');
    const updated = await store.update(recordKey(rec as StoredRecord), { final_text: '您好', user_corrected: true });
    expect(updated?.input_context).toEqual({ app_name: 'Slack', bundle_id: 'b' });
    const onDisk = JSON.parse(fileLines(store.paths.active)[0] ?? '{}') as Record<string, unknown>;
    expect(onDisk).toMatchObject({ final_text: '您好', input_context: { app_name: 'Slack', bundle_id: 'b' }, wenzi_future: { score: 1.5 } });
    await store.close();
  });
});

describe('placeActive: which imported records stay active (item 2)', () => {
  const rec = (ts: string): StoredRecord => ({ ...newRecord({ timestamp: ts }), id: undefined, timestamp: ts }) as StoredRecord;
  const cand = (ts: string) => ({ record: rec(ts), text: ts, target: 'active' as const });
  // Expected outcomes written out: the newest `max` of store ∪ candidates stay (listed in time order, as
  // placed); imported ones older go to their month.
  const table: readonly { name: string; existing: string[]; imported: string[]; max: number; active: string[] }[] = [
    { name: 'empty store, under the limit: all active', existing: [], imported: ['2026-01-02', '2026-01-01'], max: 3, active: ['2026-01-01', '2026-01-02'] },
    { name: 'empty store, over the limit: oldest archived', existing: [], imported: ['2026-01-03', '2025-12-01', '2026-01-02', '2026-01-01'], max: 2, active: ['2026-01-02', '2026-01-03'] },
    { name: 'older than everything in the store but within the limit: active', existing: ['2026-02-01'], imported: ['2025-01-01'], max: 5, active: ['2025-01-01'] },
    { name: 'store holds the newest: imported all archived', existing: ['2026-02-01', '2026-02-02'], imported: ['2026-01-01'], max: 2, active: [] },
    { name: 'interleaved', existing: ['2026-01-02', '2026-01-04'], imported: ['2026-01-01', '2026-01-03', '2026-01-05'], max: 3, active: ['2026-01-03', '2026-01-05'] },
    { name: 'unparseable timestamp counts as oldest', existing: [], imported: ['garbage', '2026-01-01'], max: 1, active: ['2026-01-01'] },
  ];
  for (const t of table) {
    it(t.name, () => {
      const out = placeActive(t.existing.map(rec), t.imported.map(cand), t.max);
      expect(out.filter((p) => p.target === 'active').map((p) => p.text)).toEqual(t.active);
      for (const p of out.filter((x) => x.target !== 'active')) expect(p.target).toEqual({ month: p.text === 'garbage' ? 'unknown' : p.text.slice(0, 7) });
      expect(out).toHaveLength(t.imported.length);
    });
  }
});

describe('importing a 30,000-record WenZi folder (items 1–2)', () => {
  it('fresh store: newest 20,000 active in time order, the rest in month archives, 0 unreadable/lost/duplicated, bytes kept through a rotation', async () => {
    const wenzi = tmp();
    const { lines } = writeWenziFolder(wenzi, { active: 24_000, archived: 6_000 });
    const store = await HistoryStore.open({ dataDir: tmp(), ...quiet });
    expect(await importWenziFolder(store, wenzi)).toEqual({ imported: 30_000, duplicates: 0, badLines: 0 });
    await store.settled();
    const after = storeLines(store);
    const active = after.filter((l) => l.file === 'active').map((l) => l.text);
    const newest = lines.slice(-20_000).map((l) => l.text);
    // Exactly the newest 20,000 by timestamp, in timestamp order, byte for byte.
    expect(active).toEqual(newest);
    // Everything else in the archive of its month; nothing lost, nothing twice.
    expect(sorted(after.map((l) => l.text))).toEqual(sorted(lines.map((l) => l.text)));
    for (const l of after) if (l.file !== 'active') expect(l.text).toContain(`"timestamp": "${l.file}-`);
    expect(after.filter((l) => l.file !== 'active')).toHaveLength(10_000);
    // Nothing was set aside as unreadable.
    expect(fileLines(store.paths.quarantine)).toEqual([]);

    // The seed's rotation (real 20,000 limit, size guard off) moves WenZi's lines verbatim too.
    await store.close();
    const again = await HistoryStore.open({ dataDir: store.paths.dataDir, rotateMinBytes: 0, rotationQuietMs: 0, ...quiet });
    for (let i = 0; i < 3; i++) await again.log(newRecord({ timestamp: new Date(Date.UTC(2026, 5, 1, 0, i)).toISOString() }));
    await again.settled();
    const rotated = storeLines(again);
    expect(rotated.filter((l) => l.file === 'active')).toHaveLength(20_000);
    const wenziTexts = rotated.filter((l) => l.text.includes('wenzi_future')).map((l) => l.text);
    expect(sorted(wenziTexts)).toEqual(sorted(lines.map((l) => l.text)));
    expect(wenziTexts.every((t) => t.includes('"wenzi_future": {"score": 1.50, "tags": ["\\u4f60", "b"], "n": null}'))).toBe(true);
    // A second import finds everything already there.
    expect(await importWenziFolder(again, wenzi)).toEqual({ imported: 0, duplicates: 30_000, badLines: 0 });
    await again.close();
  }, 120_000);

  it('non-empty store: newest 20,000 of both, the store’s own older records archived by the rotation, 0 lost/duplicated', async () => {
    const wenzi = tmp();
    const { lines } = writeWenziFolder(wenzi, { active: 20_500, archived: 0 });
    const store = await HistoryStore.open({ dataDir: tmp(), ...quiet });
    // 400 of the store's own records, one every 60 WenZi minutes, interleaved with WenZi's.
    const t0 = Date.parse(lines[0]?.ts ?? '');
    const own: string[] = [];
    for (let i = 0; i < 400; i++) own.push((await store.log(newRecord({ timestamp: new Date(t0 + (i * 60 + 30) * 60_000).toISOString(), final_text: `own ${i}` }))).timestamp);
    expect(await importWenziFolder(store, wenzi)).toEqual({ imported: 20_500, duplicates: 0, badLines: 0 });
    await store.settled();
    const all = [...own.map((ts) => ({ ts: Date.parse(ts), own: true })), ...lines.map((l) => ({ ts: Date.parse(l.ts), own: false }))].sort((a, b) => a.ts - b.ts);
    const keptFrom = all[all.length - 20_000]?.ts ?? 0;
    const active = await store.readFile('active');
    expect(active).toHaveLength(20_000);
    expect(active.every((r) => Date.parse(r.timestamp) >= keptFrom)).toBe(true);
    expect(active.map((r) => Date.parse(r.timestamp))).toEqual([...active.map((r) => Date.parse(r.timestamp))].sort((a, b) => a - b));
    const after = storeLines(store);
    expect(after).toHaveLength(20_900);
    expect(new Set(after.map((l) => l.text)).size).toBe(20_900);
    expect(after.filter((l) => l.text.includes('"own ')).length).toBe(400);
    await store.close();
  }, 120_000);

  it('a folder with archives only still creates the active file', async () => {
    const wenzi = tmp();
    fs.mkdirSync(path.join(wenzi, 'conversation_history_archives'));
    fs.writeFileSync(path.join(wenzi, 'conversation_history_archives', '2025-11.jsonl'), `${wenziLine('2025-11-05T00:00:00Z', 'old')}\n`);
    const store = await HistoryStore.open({ dataDir: tmp(), ...quiet });
    expect(await importWenziFolder(store, wenzi)).toEqual({ imported: 1, duplicates: 0, badLines: 0 });
    expect(fs.existsSync(store.paths.active)).toBe(true);
    expect(fileLines(store.paths.archive('2025-11'))).toHaveLength(1);
    await store.close();
  });
});
