import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE_NAME, acquireDataLock, currentLockHolder } from '../../../../src/main/platform/data-lock.ts';

const modulePath = resolve(import.meta.dirname, '../../../../src/main/platform/data-lock.ts');

/** Starts a real Node process that takes the lock on `dir`, prints "locked" and waits for stdin to close. */
function holdLockInChild(dir: string): Promise<ChildProcess> {
  const script = `
    import { acquireDataLock } from ${JSON.stringify(modulePath)};
    const lock = acquireDataLock(${JSON.stringify(dir)}, { role: 'child' });
    process.stdout.write('locked\\n');
    process.stdin.on('end', () => { lock.release(); process.exit(0); });
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((ok, fail) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && ok(child));
    child.on('exit', (code) => fail(new Error(`child exited ${code}: ${err}`)));
  });
}

function waitExit(child: ChildProcess): Promise<void> {
  return new Promise((ok) => (child.exitCode !== null || child.signalCode !== null ? ok() : child.once('exit', () => ok())));
}

describe('data-folder lock (real processes)', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tingxie-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      c.kill('SIGKILL');
      await waitExit(c);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a free lock, records pid/host/start time, and removes the file on release', () => {
    const lock = acquireDataLock(join(dir, 'nested', 'data'), { role: 'test' });
    const written = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(written).toMatchObject({ pid: process.pid, hostname: hostname(), role: 'test' });
    expect(Number.isNaN(Date.parse(written.startedAt))).toBe(false);
    expect(lock.tookOverFrom).toBeNull();
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('refuses while another live process holds it, naming that pid', async () => {
    const child = await holdLockInChild(dir);
    children.push(child);
    let error: unknown;
    try {
      acquireDataLock(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).holder.pid).toBe(child.pid);
    expect((error as Error).message).toContain(`pid ${child.pid}`);
    expect((error as Error).message).toContain(dir);
    expect(currentLockHolder(dir)?.pid).toBe(child.pid);
  });

  it('takes over a stale lock left by a process that was killed', async () => {
    const child = await holdLockInChild(dir);
    const deadPid = child.pid;
    child.kill('SIGKILL');
    await waitExit(child);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8')).pid).toBe(deadPid);
    expect(currentLockHolder(dir)).toBeNull();

    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom?.pid).toBe(deadPid);
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
    // No temp or moved-aside files are left behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is free again after the holder releases it normally', async () => {
    const child = await holdLockInChild(dir);
    child.stdin?.end();
    await waitExit(child);
    expect(child.exitCode).toBe(0);
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom).toBeNull();
    lock.release();
  });

  it('treats a reused pid (same pid, different process start time) as stale', () => {
    // A live process that is not Tingxie: a sleeping child. The lock claims its pid with another start time.
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    children.push(sleeper);
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: sleeper.pid, hostname: hostname(), startedAt: '2020-01-01T00:00:00.000Z', procStart: '1', role: 'app' }),
    );
    if (!existsSync(`/proc/${sleeper.pid}/stat`)) return; // no /proc: pid reuse cannot be detected on this OS
    const lock = acquireDataLock(dir);
    expect(lock.tookOverFrom?.pid).toBe(sleeper.pid);
    lock.release();
  });

  it('takes over a garbage lock file, and respects a lock from another host', () => {
    writeFileSync(join(dir, LOCK_FILE_NAME), 'not json');
    acquireDataLock(dir).release();
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: 1, hostname: 'some-other-host', startedAt: 'x', role: 'app' }));
    expect(() => acquireDataLock(dir)).toThrow(/some-other-host/);
  });

  it('two processes racing for the same free lock: exactly one wins', () => {
    const script = `
      import { acquireDataLock } from ${JSON.stringify(modulePath)};
      try { acquireDataLock(process.argv[1]); process.stdout.write('won'); setTimeout(() => {}, 1500); }
      catch (e) { process.stdout.write(e.name); }`;
    const run = (): ReturnType<typeof spawn> => spawn(process.execPath, ['--input-type=module', '-e', script, dir]);
    const a = run();
    const b = run();
    const out = (c: ReturnType<typeof spawn>): Promise<string> =>
      new Promise((ok) => {
        let s = '';
        c.stdout?.on('data', (d: Buffer) => (s += d.toString()));
        c.on('exit', () => ok(s));
      });
    return Promise.all([out(a), out(b)]).then((results) => {
      expect(results.sort()).toEqual(['DataDirLockedError', 'won']);
    });
  });
});

