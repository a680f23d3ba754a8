import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Options for an atomic file write. */
export interface AtomicWriteOptions {
  /** File mode for the new file (e.g. 0o600 for secrets). */
  readonly mode?: number;
}

/**
 * Writes a file so a reader sees either the old or the new content, never a torn one, even after a crash:
 * write a temp file in the same folder, fsync it, rename it over the target, then fsync the folder so the
 * rename itself is durable. A leftover temp file (crash before rename) is harmless: readers never open it.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fsp.open(tmp, 'wx', opts.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (opts.mode !== undefined) await fsp.chmod(tmp, opts.mode); // umask may have narrowed or widened it
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** fsyncs a directory; silently skipped where the OS does not allow opening one (Windows). */
async function syncDir(dir: string): Promise<void> {
  let h: fsp.FileHandle | undefined;
  try {
    h = await fsp.open(dir, 'r');
    await h.sync();
  } catch {
    // Windows cannot open a directory for fsync; NTFS renames are journaled anyway.
  } finally {
    await h?.close();
  }
}

/** Serializes async jobs: each starts after the previous one settled (used so saves never interleave). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `job` after every job queued before it; its result or error goes to the caller only. */
  run<T>(job: () => Promise<T>): Promise<T> {
    const next = this.tail.then(job);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
