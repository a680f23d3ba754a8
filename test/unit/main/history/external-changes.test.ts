import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryService, type HistoryServiceOptions } from '../../../../src/main/history/history-service.ts';
import type { FollowResult } from '../../../../src/main/history/index/index-follow.ts';
import { parseJsonlLines } from '../../../../src/main/history/store/jsonl-reader.ts';
import { recordKey } from '../../../../src/shared/history/record.ts';
import { minuteTimestamps, newRecord, useTempDirs, wenziLine } from '../../../helpers/history-fixtures.ts';

/**
 * Another program (WenZi, a script, a sync client) edits the JSONL files while the
 * app runs, or while it is closed. The index (search) and the hot cache (prompt injection) follow,
 * reading only what changed. The app's HistoryService runs for real: real SQLite, real files, fs.watch.
 */

const tmp = useTempDirs();

function open(dir: string, extra: Partial<HistoryServiceOptions> = {}): { svc: Promise<HistoryService>; warnings: string[] } {
  const warnings: string[] = [];
  return { svc: HistoryService.open({ dataDir: dir, enabled: true, rebuildInline: true, warn: (m) => warnings.push(m), ...extra }), warnings };
}

async function search(svc: HistoryService, text: string): Promise<string[]> {
  const page = await svc.query({ text, includeArchived: true });
  return page.rows.map((r) => r.final_text);
}

/** Polls `fn` until it returns true or `ms` pass; resolves to the time it took. */
async function within(ms: number, fn: () => Promise<boolean>): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await fn()) return performance.now() - t0;
    if (performance.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Index rows per file equal a replay of the JSONL files. */
async function expectIndexMatchesFiles(svc: HistoryService): Promise<void> {
  const index = svc.indexOrNull;
  expect(index).not.toBeNull();
  let total = 0;
  for (const file of await svc.store.listFiles()) {
    const text = fs.existsSync(svc.store.pathOf(file)) ? fs.readFileSync(svc.store.pathOf(file), 'utf8') : '';
    const keys = parseJsonlLines(text).flatMap((l) => (l.kind === 'record' ? [recordKey(l.record)] : []));
    expect(new Set(index?.keysOfFile(file)), file).toEqual(new Set(keys));
    total += keys.length;
  }
  expect(index?.count()).toBe(total);
}

function appendLine(file: string, line: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${line}\n`);
}

describe('the index follows other programs’ edits of the history', () => {
  it('a record appended by another writer is searchable within a second, and only the tail is read', async () => {
    const dir = tmp();
    const { svc: opening } = open(dir);
    const svc = await opening;
    await svc.log(newRecord({ final_text: 'own record one' }));
    const seen: FollowResult[] = [];
    svc.onExternalChange((r) => seen.push(r));
    appendLine(svc.store.paths.active, wenziLine('2026-03-01T10:00:00Z', 'zebra written by WenZi'));
    const ms = await within(1000, async () => (await search(svc, 'zebra')).length === 1);
    expect(ms).toBeLessThan(1000);
    expect(seen.map((r) => [r.files, r.records])).toEqual([[['active'], 1]]);
    await expectIndexMatchesFiles(svc);
    await svc.close();
  });

  it('the hot cache (prompt injection) sees another writer’s confirmed record', async () => {
    const dir = tmp();
    const svc = await open(dir).svc;
    await svc.log(newRecord({ final_text: 'mine', timestamp: '2026-03-01T09:00:00Z' }));
    expect((await svc.getRecent({ mode: 'proofread', n: 10 })).map((r) => r.final_text)).toEqual(['mine']);
    appendLine(svc.store.paths.active, wenziLine('2026-03-01T10:00:00Z', 'from WenZi'));
    await within(1000, async () => (await svc.getRecent({ mode: 'proofread', n: 10 })).length === 2);
    expect((await svc.getRecent({ mode: 'proofread', n: 10 })).map((r) => r.final_text)).toEqual(['mine', 'from WenZi']);
    await svc.close();
  });

  it('the app logging right after an external append: both searchable, and still after a restart', async () => {
    const dir = tmp();
    // Watching off: the external line must be found through the app's own append, not by luck of timing.
    const svc = await open(dir, { follow: false }).svc;
    await svc.log(newRecord({ final_text: 'before anything' }));
    appendLine(svc.store.paths.active, wenziLine('2026-03-01T10:00:00Z', 'walrus from another tool'));
    await svc.log(newRecord({ final_text: 'walrus logged by the app' }));
    await within(1000, async () => (await search(svc, 'walrus')).length === 2);
    await expectIndexMatchesFiles(svc);
    await svc.close();

    const { svc: reopening, warnings } = open(dir);
    const again = await reopening;
    expect((await search(again, 'walrus')).sort()).toEqual(['walrus from another tool', 'walrus logged by the app']);
    expect(warnings.filter((w) => /rebuild/i.test(w))).toEqual([]);
    await again.close();
  });

  it('an append while the app was closed is taken in at start, reading only the new lines (no rebuild)', async () => {
    const dir = tmp();
    const first = await open(dir).svc;
    for (const t of minuteTimestamps('2026-03-01T08:00:00Z', 5)) await first.log(newRecord({ timestamp: t, final_text: `old ${t}` }));
    await first.close();
    appendLine(path.join(dir, 'conversation_history.jsonl'), wenziLine('2026-03-01T10:00:00Z', 'okapi appended offline'));
    const { svc: reopening, warnings } = open(dir);
    const svc = await reopening;
    expect(await search(svc, 'okapi')).toEqual(['okapi appended offline']);
    expect(warnings.filter((w) => /rebuild/i.test(w))).toEqual([]);
    await expectIndexMatchesFiles(svc);
    await svc.close();
  });

  it('a rewrite (edit + delete) and a truncate of the active file: the index matches a replay of the JSONL', async () => {
    const dir = tmp();
    const svc = await open(dir).svc;
    for (const t of minuteTimestamps('2026-03-01T08:00:00Z', 6)) await svc.log(newRecord({ timestamp: t, final_text: `line ${t}` }));
    const active = svc.store.paths.active;
    // Another tool rewrites the file: one record edited, one removed (same order, new content).
    const lines = fs.readFileSync(active, 'utf8').trim().split('\n');
    const edited = lines.map((l, i) => (i === 2 ? l.replace(/"final_text":"[^"]*"/, '"final_text":"narwhal edited elsewhere"') : l)).filter((_, i) => i !== 4);
    fs.writeFileSync(active, `${edited.join('\n')}\n`);
    await within(1000, async () => (await search(svc, 'narwhal')).length === 1);
    await expectIndexMatchesFiles(svc);
    // Truncated to its first two lines.
    fs.writeFileSync(active, `${lines.slice(0, 2).join('\n')}\n`);
    await within(1000, async () => svc.indexOrNull?.count() === 2);
    await expectIndexMatchesFiles(svc);
    expect(await search(svc, 'narwhal')).toEqual([]);
    await svc.close();
  });

  it('a new archive month dropped in is searchable; a deleted archive leaves the index; a rewritten archive re-reads that file only', async () => {
    const dir = tmp();
    const svc = await open(dir).svc;
    await svc.log(newRecord({ final_text: 'current' }));
    const seen: FollowResult[] = [];
    svc.onExternalChange((r) => seen.push(r));
    const jan = path.join(svc.store.paths.archivesDir, '2025-01.jsonl');
    const feb = path.join(svc.store.paths.archivesDir, '2025-02.jsonl');
    fs.mkdirSync(path.dirname(jan), { recursive: true });
    fs.writeFileSync(jan, `${[wenziLine('2025-01-05T10:00:00Z', 'ibex in january'), wenziLine('2025-01-06T10:00:00Z', 'ibex again')].join('\n')}\n`);
    await within(1000, async () => (await search(svc, 'ibex')).length === 2);
    fs.writeFileSync(feb, `${wenziLine('2025-02-05T10:00:00Z', 'yak in february')}\n`);
    await within(1000, async () => (await search(svc, 'yak')).length === 1);
    await expectIndexMatchesFiles(svc);

    seen.length = 0;
    fs.writeFileSync(jan, `${wenziLine('2025-01-05T10:00:00Z', 'ibex in january')}\n`);
    await within(1000, async () => (await search(svc, 'ibex')).length === 1);
    expect(seen.flatMap((r) => r.files)).toEqual(['2025-01']);

    fs.rmSync(feb);
    await within(1000, async () => (await search(svc, 'yak')).length === 0);
    await expectIndexMatchesFiles(svc);
    await svc.close();
  });

  it('an edit by the app right after an external append keeps the other writer’s line in the index', async () => {
    const dir = tmp();
    const svc = await open(dir, { follow: false }).svc;
    const mine = await svc.log(newRecord({ final_text: 'to be edited' }));
    appendLine(svc.store.paths.active, wenziLine('2026-03-01T10:00:00Z', 'gecko from elsewhere'));
    await svc.update(recordKey(mine.record), { final_text: 'edited by the app' });
    expect(await search(svc, 'gecko')).toEqual(['gecko from elsewhere']);
    await expectIndexMatchesFiles(svc);
    await svc.close();
  });

  it('the app’s own writes do not make it re-read anything (no re-scan loop)', async () => {
    const dir = tmp();
    const svc = await open(dir).svc;
    const seen: FollowResult[] = [];
    svc.onExternalChange((r) => seen.push(r));
    for (let i = 0; i < 20; i++) await svc.log(newRecord({ final_text: `own ${i}` }));
    await new Promise((r) => setTimeout(r, 400));
    expect(seen).toEqual([]);
    await expectIndexMatchesFiles(svc);
    await svc.close();
  });
});
