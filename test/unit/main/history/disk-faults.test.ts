import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryService, tempIndexPath } from '../../../../src/main/history/history-service.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { parseJsonlLines } from '../../../../src/main/history/store/jsonl-reader.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { recordKey } from '../../../../src/shared/history/record.ts';
import { newRecord } from '../../../helpers/history-fixtures.ts';
import { fillUntil, mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';

/**
 * The history on a real, small file system (a tmpfs the test mounts, or a loop-mounted ext4 image):
 * a disk that fills up while a rotation is due, a restart on the full disk, and a read-only folder.
 * ENOSPC and EROFS come from the kernel. Skipped, with the reason, where nothing can be mounted.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/tingxie.mjs');

const mounts: SmallFs[] = [];
afterAll(() => {
  // Even after a failed test: a mount left behind would outlive the run.
  for (const m of mounts.splice(0)) {
    // The read-only and full-disk cases build their index in the OS temp folder.
    fs.rmSync(path.dirname(tempIndexPath(path.join(m.dir, 'data'))), { recursive: true, force: true });
    m.unmount();
  }
});

function mount(bytes: number): SmallFs | string {
  const m = mountSmallFs(bytes);
  if ('skip' in m) return m.skip;
  mounts.push(m);
  return m;
}

/** `n` records written straight to the active file (fast set-up), oldest first, spread over three months. */
function seedActive(dataDir: string, n: number, tag = 'seed'): string[] {
  const ids: string[] = [];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${tag}-${String(i).padStart(5, '0')}`;
    ids.push(id);
    const ts = new Date(Date.UTC(2026, i % 3, 1 + (i % 27), 8, 0, i % 60)).toISOString();
    lines.push(JSON.stringify({ ...newRecord({ final_text: `${tag} ${i}` }), id, timestamp: ts }));
  }
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(historyPaths(dataDir).active, `${lines.join('\n')}\n`);
  return ids;
}

/** Keys on disk (active + archives) with how often each occurs; also the bad lines found. */
function keysOnDisk(dataDir: string): { counts: Map<string, number>; bad: number } {
  const p = historyPaths(dataDir);
  const files = [p.active];
  if (fs.existsSync(p.archivesDir)) for (const f of fs.readdirSync(p.archivesDir)) files.push(path.join(p.archivesDir, f));
  const counts = new Map<string, number>();
  let bad = 0;
  for (const f of files) {
    if (!fs.existsSync(f)) continue;
    for (const l of parseJsonlLines(fs.readFileSync(f, 'utf8'))) {
      if (l.kind === 'bad') bad++;
      else counts.set(recordKey(l.record), (counts.get(recordKey(l.record)) ?? 0) + 1);
    }
  }
  return { counts, bad };
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Thresholds scaled down to a 3 MB disk: 2,000 records / 64 KB instead of 20,000 / 4 MB. */
const SMALL = { maxRecords: 2000, rotateMinBytes: 64 * 1024, rotationQuietMs: 0, rotationRetryMs: 40, writeRetryMs: 40 };

describe('history on a nearly full disk', () => {
  it('a failed rotation never blocks appends; it is retried with backoff, reported once, and completes when space returns; restart on the full disk works', async (ctx) => {
    const small = mount(3 * 1024 * 1024);
    if (typeof small === 'string') return ctx.skip(small);
    const dataDir = path.join(small.dir, 'data');
    const seeded = seedActive(dataDir, SMALL.maxRecords + 100);
    const activeBytes = fs.statSync(historyPaths(dataDir).active).size;
    // Room for appends and the archive part of a rotation, never for its copy of the active file.
    const filler = fillUntil(small, 200 * 1024);
    expect(small.free()).toBeLessThan(activeBytes / 2);

    const warnings: string[] = [];
    const store = await HistoryStore.open({ dataDir, ...SMALL, warn: (m) => warnings.push(m) });
    const acked: string[] = [];
    const failed: string[] = [];
    for (let i = 0; i < 8; i++) {
      try {
        acked.push((await store.log(newRecord({ final_text: `while full ${i}` }))).id);
      } catch (err) {
        failed.push(String(err));
      }
      await sleep(25); // the background rotation runs (and fails) between dictations
    }
    // Before the fix: 1 of 8 (every later append first retried the full rewrite and hit ENOSPC).
    expect(failed).toEqual([]);
    expect(acked).toHaveLength(8);
    await sleep(300); // several retries (40 ms doubling) happen meanwhile
    expect(warnings.filter((m) => m.includes('rotation failed'))).toHaveLength(1);
    expect(store.rotationsCompleted).toBe(0);
    await store.close();

    // Restart while the disk is still full, with the rotation unfinished: open must not throw.
    const svc = await HistoryService.open({ dataDir, ...SMALL, enabled: true, rebuildInline: true, warn: (m) => warnings.push(m) });
    const page = await svc.query({ text: '', includeArchived: true, pageSize: 20 });
    expect(page.total).toBeGreaterThanOrEqual(seeded.length + 8);
    const more = await svc.log(newRecord({ final_text: 'after restart' }));
    expect(more.saved).toBe(true);
    acked.push(more.record.id);

    // Space comes back: the retried rotation completes by itself.
    fs.rmSync(filler);
    await until(() => svc.store.rotationsCompleted > 0 || svc.store.openReport.recoveredRotation !== null);
    await svc.settled();
    await svc.close();
    const { counts } = keysOnDisk(dataDir);
    for (const id of [...seeded, ...acked]) expect(counts.get(id), id).toBe(1);
    expect(counts.size).toBe(seeded.length + acked.length);
    expect(fs.readdirSync(historyPaths(dataDir).archivesDir).length).toBeGreaterThan(0);
  }, 60_000);

  it('appends that the disk refuses are kept in memory and written, in order, once space returns', async (ctx) => {
    const small = mount(2 * 1024 * 1024);
    if (typeof small === 'string') return ctx.skip(small);
    const dataDir = path.join(small.dir, 'data');
    seedActive(dataDir, 10);
    const svc = await HistoryService.open({ dataDir, ...SMALL, enabled: true, rebuildInline: true, warn: () => undefined });
    const filler = fillUntil(small, 0);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await svc.log(newRecord({ final_text: `no room ${i}`, asr_text: 'x'.repeat(8000) })));
    expect(results.some((r) => r.pending === true)).toBe(true);
    expect(svc.health?.state).toBe('write-failed');
    fs.rmSync(filler);
    await until(() => svc.health === null);
    await svc.settled();
    const texts = parseJsonlLines(fs.readFileSync(historyPaths(dataDir).active, 'utf8')).flatMap((l) => (l.kind === 'record' ? [l.record.final_text] : []));
    expect(texts.slice(-5)).toEqual([0, 1, 2, 3, 4].map((i) => `no room ${i}`));
    await svc.close();
  }, 60_000);
});

describe('history in a read-only data folder', () => {
  it('opens, lists (app and CLI), keeps new records in memory, and writes them when the folder is writable again', async (ctx) => {
    const small = mount(8 * 1024 * 1024);
    if (typeof small === 'string') return ctx.skip(small);
    const dataDir = path.join(small.dir, 'data');
    const seeded = seedActive(dataDir, 30);
    {
      const svc = await HistoryService.open({ dataDir, enabled: true, rebuildInline: true, warn: () => undefined });
      await svc.close();
    }
    small.remount('ro');
    expect(() => fs.writeFileSync(path.join(dataDir, 'probe'), 'x')).toThrow(/EROFS/);

    // The CLI's read-only command works on the read-only folder (before the fix: EROFS, exit 1).
    const cli = spawnSync(NODE, [BIN, '--data-dir', dataDir, '--json', 'history', 'list', '--limit', '100'], { encoding: 'utf8', timeout: 30_000 });
    expect(cli.stderr).not.toMatch(/^tingxie/m);
    expect(cli.status, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { total: number }).total).toBe(30);

    const warnings: string[] = [];
    // Before the fix: throws EROFS, so the app could not start.
    const svc = await HistoryService.open({ dataDir, enabled: true, writeRetryMs: 40, rebuildInline: true, warn: (m) => warnings.push(m) });
    expect(svc.health?.state).toBe('read-only');
    expect((await svc.query({ text: '', pageSize: 100 })).total).toBe(30);
    const r = await svc.log(newRecord({ final_text: 'dictated while read-only' }));
    expect(r).toMatchObject({ saved: false, pending: true });
    expect(svc.store.pendingRecords.map((x) => x.final_text)).toEqual(['dictated while read-only']);
    expect(warnings.filter((m) => m.includes('cannot be written') || m.includes('cannot write'))).toHaveLength(1);

    small.remount('rw');
    await until(() => svc.health === null);
    await svc.settled();
    const { counts } = keysOnDisk(dataDir);
    for (const id of [...seeded, r.record.id]) expect(counts.get(id), id).toBe(1);
    expect((await svc.query({ text: 'read-only', pageSize: 10 })).total).toBe(1);
    await svc.close();
  }, 60_000);
});
