import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic as writeDurable } from '../platform/durable-fs.ts';

/** Options for an atomic settings write. */
export interface AtomicWriteOptions {
  /** File mode for the new file (e.g. 0o600 for secrets), set exactly whatever the umask. */
  readonly mode?: number;
}

/**
 * Writes a settings file atomically (platform/durable-fs.ts: temp file, fsync, rename, fsync folder) with
 * settings' own terms: the folder is created when missing, a new file is created 0o644 (before the umask)
 * unless `mode` says otherwise, and the folder fsync is best effort — the file is already in place then.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeDurable(file, data, { ...(opts.mode !== undefined ? { mode: opts.mode } : { createMode: 0o644 }), dirSync: 'ignore' });
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
