import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes the temp files that crashed saves leave behind: an atomic write killed before its rename
 * (`.<name>.<pid>.<hex>.tmp`, durable-fs.ts), an index rebuild killed before its swap
 * (`index.db.rebuild-<pid>-<ms>.tmp` and its -wal/-shm/-journal), the lock's own temp files
 * (`tingxie.lock.tmp-<pid>-<hex>`, `.stale-…`). Only files whose writer is gone are removed: the pid in
 * the name must not be a live process (a CLI `config set` may be saving while the app starts).
 */

const PATTERNS: readonly RegExp[] = [
  /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/,
  /^.+\.rebuild-(\d+)-\d+\.tmp(?:-wal|-shm|-journal)?$/,
  /^tingxie\.lock\.(?:tmp|stale)-(\d+)-[0-9a-f]{8}$/,
];

/** Whether a pid names a live process (EPERM: it exists, owned by someone else). */
function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The writer's pid of a temp file name, or null when the name is not one of ours. */
export function tempFileOwner(name: string): number | null {
  for (const re of PATTERNS) {
    const m = re.exec(name);
    if (m) return Number(m[1]);
  }
  return null;
}

/** What a sweep removed. */
export interface StaleTempSweep {
  readonly files: readonly string[];
  readonly bytes: number;
}

/** Removes stale temp files directly inside each folder (missing folders are skipped); never throws. */
export async function removeStaleTempFiles(dirs: readonly string[], isAlive: (pid: number) => boolean = pidAlive): Promise<StaleTempSweep> {
  const files: string[] = [];
  let bytes = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = tempFileOwner(name);
      if (pid === null || isAlive(pid)) continue;
      const file = path.join(dir, name);
      try {
        const st = await stat(file);
        if (!st.isFile()) continue;
        await rm(file, { force: true });
        files.push(file);
        bytes += st.size;
      } catch {
        // Gone already, or the folder is read-only: nothing to do now.
      }
    }
  }
  return { files, bytes };
}
