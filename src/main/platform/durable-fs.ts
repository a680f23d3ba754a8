import fs from 'node:fs';
import { open, rename, mkdir, unlink, lstat, chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { APPEND_FLAGS, openRegular, READ_WRITE_FLAGS } from './regular-open.ts';
import { writeFullySync } from './write-fully.ts';

/*
 * The one home of the app's durable file writes (history, settings, the audio and session journals):
 * appends are fsynced, replacements go temp file in the same folder → fsync → rename → fsync(folder), so
 * a reader sees the old or the new content, never a torn one, and neither the data nor the new name is
 * lost on power failure: an fsync of the file does not make its directory entry durable, only an fsync
 * of the folder does (https://man7.org/linux/man-pages/man2/fsync.2.html). A leftover temp file (crash before the
 * rename) is harmless: it is hidden, ends in `.tmp`, and no reader opens it. Plain Node, no electron.
 */

/** Error codes with which an OS refuses to open or fsync a directory (Windows); anything else is a real failure. */
const DIR_SYNC_REFUSED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'EACCES']);

/** Fsyncs a directory so a rename or creation inside it survives power loss (a no-op where the OS refuses, e.g. Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (err) {
    // Windows cannot open or fsync a directory; its rename is already durable enough (MoveFileEx).
    if (!DIR_SYNC_REFUSED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await fh?.close();
  }
}

/** Synchronous {@link fsyncDir}, for the journals' synchronous writes. */
export function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    if (!DIR_SYNC_REFUSED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Creates a directory (and parents) and fsyncs its parent when it was new. */
export async function ensureDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true });
  if (created !== undefined) await fsyncDir(path.dirname(dir));
}

/**
 * Appends bytes to a file (creating it) and fsyncs before resolving. When the append fails (ENOSPC
 * halfway) the file is cut back to its old length, so a failed append never leaves a torn line behind.
 * Resolves to the file's length before the append (where the new bytes start).
 */
export function appendDurable(filePath: string, data: string | Uint8Array): Promise<number> {
  return appendStreamDurable(filePath, (write) => write(data));
}

/**
 * {@link appendDurable} through `fill`, which may write many pieces (a large text streamed in chunks).
 * Only a regular file is appended to (see regular-open.ts): a FIFO put under the name would block the
 * open until something reads it (man 7 fifo), and a symbolic link would send the bytes elsewhere; both
 * reject with NotRegularFileError (an OS-style code), so callers treat them as a disk state.
 */
export async function appendStreamDurable(filePath: string, fill: (write: (data: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<number> {
  let isNew = false;
  try {
    await lstat(filePath);
  } catch {
    isNew = true;
  }
  const fh = await openRegular(filePath, APPEND_FLAGS);
  let size: number;
  try {
    size = (await fh.stat()).size;
    try {
      await fill(async (data) => {
        // appendFile loops over short writes itself (unlike `fh.write`; see write-fully.ts).
        await fh.appendFile(data);
      });
      await fh.sync();
    } catch (err) {
      // Truncating needs no free space; if even that fails the caller repairs the tail later.
      await fh.truncate(size).then(() => fh.sync()).catch(() => undefined);
      throw err;
    }
  } finally {
    await fh.close();
  }
  // A new file's directory entry must be durable too, or the fsynced data could be unreachable.
  if (isNew) await fsyncDir(path.dirname(filePath));
  return size;
}

/** Options for an atomic file replacement. */
export interface AtomicWriteOptions {
  /** Permission bits set exactly on the new file (chmod after creating it, so the umask cannot narrow or widen them; e.g. 0o600 for secrets). */
  readonly mode?: number;
  /** Mode the file is created with when `mode` is not given, before the umask applies (default 0o666, Node's). */
  readonly createMode?: number;
  /** A failed folder fsync after the rename: 'throw' (default) or 'ignore' (best effort: the file is already in place). */
  readonly dirSync?: 'throw' | 'ignore';
}

/** A fresh hidden temp name next to `file` (same folder, so the rename stays on one filesystem). */
function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Replaces a file atomically: temp file in the same directory, fsync, rename, fsync(directory). The directory must exist. */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const tmp = tempPathFor(filePath);
  const fh = await open(tmp, 'wx', opts.mode ?? opts.createMode ?? 0o666);
  try {
    try {
      await fh.writeFile(data); // loops over short writes itself (unlike `fh.write`; see write-fully.ts)
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (opts.mode !== undefined) await chmod(tmp, opts.mode); // the umask may have narrowed or widened it
    await rename(tmp, filePath);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  const synced = fsyncDir(path.dirname(filePath));
  await (opts.dirSync === 'ignore' ? synced.catch(() => undefined) : synced);
}

/**
 * Synchronous atomic replacement for the crash journals (they write on the dictation path and must be on
 * disk before the next step starts): temp file, fsync, rename, fsync(folder). B8 measures the cost on the
 * dictation path (key-up → paste overhead p95 stayed ≈ 2 ms here).
 */
export function writeFileAtomicSync(filePath: string, data: string | Uint8Array): void {
  const tmp = tempPathFor(filePath);
  try {
    const fd = fs.openSync(tmp, 'wx');
    try {
      // One `fs.writeSync` may write only part of the data on a nearly full disk (see write-fully.ts).
      writeFullySync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fs.fsyncSync(fd); // flush before the rename makes the new content visible
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, filePath);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  // The journals hold audio nobody else has yet: its new name must survive a power cut too.
  fsyncDirSync(path.dirname(filePath));
}

/** Truncates a regular file to `size` bytes and fsyncs it (anything else is refused, see regular-open.ts). */
export async function truncateDurable(filePath: string, size: number): Promise<void> {
  const fh = await openRegular(filePath, READ_WRITE_FLAGS);
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
