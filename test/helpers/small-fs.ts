/**
 * A small, real file system for disk-fault tests: a size-limited tmpfs (or, where tmpfs cannot be
 * mounted, a loop-mounted ext4 image), so ENOSPC and EROFS come from the kernel, not from a mock.
 * Needs root (CAP_SYS_ADMIN); `mountSmallFs` returns a skip reason instead where that is not possible.
 * Always unmount in afterAll (`unmount` is safe to call twice and after a failed test).
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

/** Mounts a file system of `sizeBytes`, or returns why that is not possible here (the test is then skipped). */
export function mountSmallFs(sizeBytes: number): SmallFs | { readonly skip: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-smallfs-'));
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
  return { skip: `cannot mount a small file system here (needs root): ${reasons.join('; ')}` };
}
