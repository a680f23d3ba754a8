import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { hasRoomToRotate } from '../../../../src/main/history/rotation/rotation.ts';
import { rotationIntentPath } from '../../../../src/main/history/rotation/rotation-run.ts';
import { newRecord, until } from '../../../helpers/history-fixtures.ts';
import { fillUntil, mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';

/**
 * A rotation the full disk stopped must not wait out its backoff (30 s, doubling to 30 min) once room
 * is back: the next successful append retries it, and `rotateNow` (the CLI's `history rotate`) runs it
 * at once. Until then its moving records sit in both their archive and the active file.
 */

const mounts: SmallFs[] = [];
afterAll(() => {
  for (const m of mounts.splice(0)) m.unmount();
});

/** The app's real retry wait (30 s): the test must see the rotation done long before it. */
const OPTS = { maxRecords: 100, rotateMinBytes: 16 * 1024, rotationQuietMs: 0, rotationRetryMs: 30_000, writeRetryMs: 40 };

/** A 1 MB disk holding an active file past both thresholds, filled until a rotation no longer fits. */
function fullDiskWithDueRotation(): { dataDir: string; filler: string } | string {
  const small = mountSmallFs(1024 * 1024);
  if ('skip' in small) return small.skip;
  mounts.push(small);
  const dataDir = path.join(small.dir, 'data');
  fs.mkdirSync(dataDir);
  const lines = Array.from({ length: 140 }, (_, i) => JSON.stringify({ ...newRecord({ final_text: `seed ${i} ${'字'.repeat(200)}` }), id: `seed-${i}`, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }));
  fs.writeFileSync(historyPaths(dataDir).active, `${lines.join('\n')}\n`);
  // Room for appends, not for the rotation's copy of the active file.
  const filler = fillUntil(small, 24 * 1024);
  return { dataDir, filler };
}

/** Opens the store and logs until the background rotation has failed once (the disk is full); counts `rotated` events. */
async function storeWithFailedRotation(dataDir: string, warnings: string[]): Promise<{ store: HistoryStore; rotated: () => number }> {
  const store = await HistoryStore.open({ dataDir, ...OPTS, warn: (m) => warnings.push(m) });
  let rotated = 0;
  store.onChange((e) => {
    if (e.type === 'rotated') rotated++;
  });
  await store.log(newRecord({ final_text: 'makes the rotation due' }));
  await store.settled();
  expect(warnings.filter((m) => m.includes('rotation failed'))).toHaveLength(1);
  expect(rotated).toBe(0);
  return { store, rotated: () => rotated };
}

/** The rotation is finished: no intent left, and the active file is back to the limit. */
async function finished(store: HistoryStore, dataDir: string): Promise<void> {
  expect(fs.existsSync(rotationIntentPath(historyPaths(dataDir)))).toBe(false);
  expect((await store.readFile('active')).length).toBeLessThanOrEqual(OPTS.maxRecords);
}

describe('retrying a rotation the full disk stopped', () => {
  it('the first append after space is freed retries it at once, not after the 30 s wait', async (ctx) => {
    const disk = fullDiskWithDueRotation();
    if (typeof disk === 'string') return ctx.skip(disk);
    const warnings: string[] = [];
    const { store, rotated } = await storeWithFailedRotation(disk.dataDir, warnings);
    // Still full: appends go on and do not retry the rotation (no room for it yet).
    await store.log(newRecord({ final_text: 'still full' }));
    await store.settled();
    expect(rotated()).toBe(0);
    fs.rmSync(disk.filler);
    await store.log(newRecord({ final_text: 'room again' }));
    expect(await until(() => rotated() > 0, 3000), 'rotation retried within 3 s of the append').toBe(true);
    await store.settled();
    await finished(store, disk.dataDir);
    await store.close();
  });

  it('rotateNow runs it at once instead of silently waiting for the retry', async (ctx) => {
    const disk = fullDiskWithDueRotation();
    if (typeof disk === 'string') return ctx.skip(disk);
    const { store, rotated } = await storeWithFailedRotation(disk.dataDir, []);
    fs.rmSync(disk.filler);
    await store.rotateNow();
    expect(rotated()).toBeGreaterThan(0);
    await finished(store, disk.dataDir);
    await store.close();
  });

  it('needs room for the whole active file plus headroom (pure)', () => {
    expect(hasRoomToRotate(200_000, 100_000)).toBe(true);
    expect(hasRoomToRotate(120_000, 100_000)).toBe(false);
  });
});
