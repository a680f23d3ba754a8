import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { mountSmallFs, ownerFileOf, type SmallFs } from '../../../helpers/small-fs.ts';

/**
 * The disk-fault tests' small file systems (test/helpers/small-fs.ts) must not outlive a killed run:
 * the next `mountSmallFs` removes mounts whose owner process is gone, and only those.
 */

const mounts: SmallFs[] = [];
afterAll(() => {
  for (const m of mounts.splice(0)) m.unmount();
});

function mountedAt(dir: string): boolean {
  return fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').some((l) => l.split(' ')[1] === dir);
}

/** The id of a process that has exited (a child run to completion). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (r.pid === undefined) throw new Error('could not start a child process');
  return r.pid;
}

describe('small-fs helper', () => {
  it("unmounts and removes a mount left by a process that no longer exists, and keeps a live owner's", async (ctx) => {
    const stale = mountSmallFs(256 * 1024);
    if ('skip' in stale) return ctx.skip(stale.skip);
    const live = mountSmallFs(256 * 1024);
    if ('skip' in live) return ctx.skip(live.skip);
    mounts.push(live);
    fs.writeFileSync(`${stale.dir}/data.bin`, 'left by a killed run');
    expect(mountedAt(stale.dir)).toBe(true);
    // As if the test process that mounted it had been killed before its afterAll.
    fs.writeFileSync(ownerFileOf(stale.dir), `${deadPid()}\n`);

    const next = mountSmallFs(256 * 1024);
    if ('skip' in next) return ctx.skip(next.skip);
    mounts.push(next);

    expect(mountedAt(stale.dir)).toBe(false);
    expect(fs.existsSync(stale.dir)).toBe(false);
    expect(fs.existsSync(ownerFileOf(stale.dir))).toBe(false);
    expect(fs.existsSync(`${stale.dir}.img`)).toBe(false);
    // This process is alive: its other mount stays, and the new one is usable.
    expect(mountedAt(live.dir)).toBe(true);
    expect(mountedAt(next.dir)).toBe(true);
    expect(fs.readFileSync(ownerFileOf(next.dir), 'utf8').trim()).toBe(String(process.pid));
    fs.writeFileSync(`${next.dir}/ok.txt`, 'ok');
  });
});
