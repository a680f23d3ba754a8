import { open, rename, mkdir, unlink, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The few file operations history needs, each durable before it resolves: appends are fsynced,
 * replacements go tmp file → fsync → rename → fsync(directory) so neither the data nor the new
 * name can be lost on power failure (see research/perf-reliability.md B3).
 */

/** Fsyncs a directory so a rename or creation inside it survives power loss (a no-op where the OS refuses, e.g. Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Windows cannot open or fsync a directory; its rename is already durable enough (MoveFileEx).
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw err;
  } finally {
    await fh?.close();
  }
}

/** Creates a directory (and parents) and fsyncs its parent when it was new. */
export async function ensureDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true });
  if (created !== undefined) await fsyncDir(path.dirname(dir));
}

/** Appends bytes to a file (creating it) and fsyncs before resolving. */
export async function appendDurable(filePath: string, data: string | Uint8Array): Promise<void> {
  let isNew = false;
  try {
    await stat(filePath);
  } catch {
    isNew = true;
  }
  const fh = await open(filePath, 'a');
  try {
    await fh.appendFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  // A new file's directory entry must be durable too, or the fsynced data could be unreachable.
  if (isNew) await fsyncDir(path.dirname(filePath));
}

/** Replaces a file atomically: tmp in the same directory, fsync, rename, fsync(directory). */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${filePath}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, filePath);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(path.dirname(filePath));
}

/** Truncates a file to `size` bytes and fsyncs it. */
export async function truncateDurable(filePath: string, size: number): Promise<void> {
  const fh = await open(filePath, 'r+');
  try {
    await fh.truncate(size);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Removes a file if present and fsyncs its directory; false when it did not exist. */
export async function unlinkDurable(filePath: string): Promise<boolean> {
  try {
    await unlink(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  await fsyncDir(path.dirname(filePath));
  return true;
}
