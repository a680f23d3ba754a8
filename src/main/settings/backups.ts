import { promises as fsp } from 'node:fs';
import path from 'node:path';

/*
 * Backups of settings files (config.json, secrets.json) that had to be rewritten. They can hold key
 * material, so they are private (0600 from the first byte, never a copy that is chmod-ed afterwards) and
 * only the newest few are kept: a config that is repaired at every start must not fill the folder with
 * copies of itself.
 */

/** How many backups of one kind (`bad`, `pre-v2`, …) are kept per file. */
export const BACKUPS_KEPT = 3;

/** The timestamp part of a backup name (sorts in time order). */
function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/**
 * Writes `bytes` to `<file>.<tag>-<time>` (mode 0600, never over an existing file), then removes all but the
 * newest BACKUPS_KEPT backups with that tag. Returns the backup's path; throws when it cannot be written.
 */
export async function writePrivateBackup(file: string, tag: string, bytes: Buffer | string, now: Date = new Date()): Promise<string> {
  const base = `${file}.${tag}-${stamp(now)}`;
  for (let n = 0; n < 100; n++) {
    const candidate = n === 0 ? base : `${base}-${n}`;
    try {
      await fsp.writeFile(candidate, bytes, { flag: 'wx', mode: 0o600 });
      // The umask cannot widen 0600, but a file system that ignores modes on create still gets it set.
      await fsp.chmod(candidate, 0o600).catch(() => undefined);
      await pruneBackups(file, tag);
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error('too many backups with the same timestamp');
}

/** Deletes all but the newest `keep` backups `<file>.<tag>-*` (newest by time in the name, then mtime); never throws. */
export async function pruneBackups(file: string, tag: string, keep: number = BACKUPS_KEPT): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.${tag}-`;
  let names: string[];
  try {
    names = (await fsp.readdir(dir)).filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp'));
  } catch {
    return;
  }
  if (names.length <= keep) return;
  const dated = await Promise.all(
    names.map(async (n) => {
      const st = await fsp.stat(path.join(dir, n)).catch(() => null);
      return { n, key: backupOrder(n.slice(prefix.length)), mtime: st?.mtimeMs ?? 0 };
    }),
  );
  dated.sort((a, b) => (a.key === b.key ? b.mtime - a.mtime : a.key < b.key ? 1 : -1));
  for (const { n } of dated.slice(keep)) await fsp.rm(path.join(dir, n), { force: true }).catch(() => undefined);
}

/** `2024-05-01T10-00-00-000Z-12` → a key that sorts the `-n` suffix numerically after the bare stamp. */
function backupOrder(rest: string): string {
  const m = /^(.*Z)(?:-(\d+))?$/.exec(rest);
  if (m === null) return rest;
  return `${m[1]}#${(m[2] ?? '0').padStart(3, '0')}`;
}
