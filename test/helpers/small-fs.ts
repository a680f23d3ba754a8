/**
 * A small, real file system for disk-fault tests: a size-limited tmpfs (or, where tmpfs cannot be
 * mounted, a loop-mounted ext4 image), so ENOSPC and EROFS come from the kernel, not from a mock.
 * Needs root (CAP_SYS_ADMIN); `mountSmallFs` returns a skip reason instead where that is not possible.
 * Always unmount in afterAll (`unmount` is safe to call twice and after a failed test). A run killed
 * before its afterAll leaves its mount behind: every mount point has an owner file beside it (outside
 * the mount) naming the test process, and the next `mountSmallFs` removes mounts whose owner is gone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A mounted small file system. */
export interface SmallFs {
  /** The mount point (empty at first). */
  readonly dir: string;
  readonly kind: 'tmpfs' | 'ext4-loop';
  /** Makes the file system read-only (EROFS on every write) or writable again. */
  remount(mode: 'ro' | 'rw'): void;
  /** Bytes free right now. */
  free(): number;
  /** Unmounts and removes the mount point (and the image). */
  unmount(): void;
}

function run(cmd: string, args: readonly string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Fills the file system with a filler file until only about `leaveBytes` are free; returns the filler's path. */
export function fillUntil(small: SmallFs, leaveBytes: number, name = 'filler.bin'): string {
  const file = path.join(small.dir, name);
  const fd = fs.openSync(file, 'a');
  try {
    const block = Buffer.alloc(64 * 1024, 0x61);
    for (;;) {
      const room = small.free() - leaveBytes;
      if (room <= 0) break;
      try {
        fs.writeSync(fd, block, 0, Math.min(block.length, room));
      } catch {
        break;
      }
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/** Prefix of every mount point this helper makes in the OS temp folder. */
const MOUNT_PREFIX = 'tingxie-smallfs-';
/** A mount point without an owner file is only taken for stale this long after it was made (a mount of an older helper, or one being made right now). */
const UNOWNED_STALE_MS = 10 * 60_000;

/** The owner file of a mount point: beside it, outside the mount, holding the owning process id. */
export function ownerFileOf(dir: string): string {
  return `${dir}.owner`;
}

/** Whether a process with this id is running (EPERM: it exists but belongs to someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a leftover mount point's owner is gone: its recorded process has exited, or it has no owner file and is old. */
function ownerGone(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(ownerFileOf(dir), 'utf8').trim());
  } catch {
    const made = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    return Date.now() - made > UNOWNED_STALE_MS;
  }
  return !(Number.isInteger(pid) && pid > 0 && processAlive(pid));
}

/** Whether `dir` is a mount point right now (listed in /proc/self/mounts). */
function isMounted(dir: string): boolean {
  try {
    return fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').some((l) => l.split(' ')[1] === dir);
  } catch {
    return false;
  }
}

/** Unmounts (lazily when busy) and deletes one mount point with its owner file and loop image. */
function removeMountPoint(dir: string): void {
  if (isMounted(dir)) {
    try {
      run('umount', [dir]);
    } catch {
      run('umount', ['-l', dir]);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}.img`, { force: true });
  fs.rmSync(ownerFileOf(dir), { force: true });
}

/**
 * Removes the mounts a killed test run left behind (their owner process no longer exists), with their
 * loop images and owner files; returns the mount points removed. Mounts of running tests are left alone.
 */
export function removeStaleSmallFs(tmpDir: string = os.tmpdir()): string[] {
  const removed: string[] = [];
  const names = new Set(fs.readdirSync(tmpDir).filter((n) => n.startsWith(MOUNT_PREFIX)).map((n) => n.replace(/\.(owner|img)$/, '')));
  for (const name of names) {
    const dir = path.join(tmpDir, name);
    if (!fs.existsSync(dir)) {
      // An image or owner file whose mount point is gone: nothing can be using it.
      fs.rmSync(`${dir}.img`, { force: true });
      fs.rmSync(ownerFileOf(dir), { force: true });
      continue;
    }
    if (!ownerGone(dir)) continue;
    try {
      removeMountPoint(dir);
      removed.push(dir);
    } catch {
      // Not ours to force (another user's, or umount refused): left for a later run.
    }
  }
  return removed;
}

/** Mounts a file system of `sizeBytes`, or returns why that is not possible here (the test is then skipped). */
export function mountSmallFs(sizeBytes: number): SmallFs | { readonly skip: string } {
  removeStaleSmallFs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), MOUNT_PREFIX));
  // Written before mounting, outside the mount: a run killed at any point leaves an owner to check.
  fs.writeFileSync(ownerFileOf(dir), `${process.pid}\n`);
  const free = (): number => {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  };
  const make = (kind: SmallFs['kind'], image: string | null): SmallFs => {
    let mounted = true;
    return {
      dir,
      kind,
      free,
      remount: (mode) => run('mount', ['-o', `remount,${mode}`, dir]),
      unmount: () => {
        if (mounted) {
          try {
            run('umount', [dir]);
          } catch {
            run('umount', ['-l', dir]);
          }
          mounted = false;
        }
        fs.rmSync(dir, { recursive: true, force: true });
        if (image) fs.rmSync(image, { force: true });
        fs.rmSync(ownerFileOf(dir), { force: true });
      },
    };
  };
  const reasons: string[] = [];
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir]);
    return make('tmpfs', null);
  } catch (err) {
    reasons.push(`tmpfs: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
  }
  const image = `${dir}.img`;
  try {
    run('truncate', ['-s', String(Math.max(sizeBytes, 2 * 1024 * 1024)), image]);
    run('mkfs.ext4', ['-q', '-F', image]);
    run('mount', ['-o', 'loop', image, dir]);
    return make('ext4-loop', image);
  } catch (err) {
    reasons.push(`ext4 loop: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(image, { force: true });
  fs.rmSync(ownerFileOf(dir), { force: true });
  return { skip: `cannot mount a small file system here (needs root): ${reasons.join('; ')}` };
}
