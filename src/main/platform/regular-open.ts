import fs, { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';

/*
 * Opening a data file only when it is a regular file. A FIFO under the file's name would block the open
 * until another process opens its other end (man 7 fifo: for reading and for writing alike), a device
 * may never end, and a symbolic link is not followed (the data files are replaced by rename, which would
 * silently cut the link). The path is checked with lstat before the open (so a FIFO is never opened
 * while another is waiting), opened with O_NONBLOCK|O_NOFOLLOW (a FIFO swapped in between cannot block:
 * a write-only open fails with ENXIO, a read-only one returns at once; a link fails with ELOOP), and
 * checked again with fstat on the handle.
 */

/** A path that is not a regular file (a FIFO, socket, device, folder or symbolic link): never read or written. */
export class NotRegularFileError extends Error {
  /** `EISDIR` for a folder, `ELOOP` for a symbolic link, `ENOTREG` otherwise (an OS-style code, so callers treat it as a disk state). */
  readonly code: string;
  readonly path: string;
  /** `action`: what Tingxie refused to do with it, for the message ("reads", "writes"). */
  constructor(filePath: string, what: string, code: string, action: 'reads' | 'writes' = 'reads') {
    super(`${code}: ${filePath} is ${what}, not a regular file; Tingxie only ${action} regular files here`);
    this.name = 'NotRegularFileError';
    this.code = code;
    this.path = filePath;
  }
}

/** What kind of non-regular file `st` describes ("a FIFO (named pipe)", …), for messages; null for a regular file. Pure. */
export function nonRegularKind(st: Stats): { readonly what: string; readonly code: string } | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return { what: 'a folder', code: 'EISDIR' };
  if (st.isSymbolicLink()) return { what: 'a symbolic link', code: 'ELOOP' };
  if (st.isFIFO()) return { what: 'a FIFO (named pipe)', code: 'ENOTREG' };
  if (st.isSocket()) return { what: 'a socket', code: 'ENOTREG' };
  if (st.isCharacterDevice() || st.isBlockDevice()) return { what: 'a device', code: 'ENOTREG' };
  return { what: 'not a regular file', code: 'ENOTREG' };
}

// Both flags are absent on Windows, which has neither FIFOs in the file system nor this hazard
// (https://nodejs.org/api/fs.html#file-open-constants); the lstat check still refuses a link there.
const NO_BLOCK_NO_FOLLOW = (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Flags for reading a regular file. */
export const READ_FLAGS = constants.O_RDONLY;
/** Flags for reading and writing (truncating) an existing regular file. */
export const READ_WRITE_FLAGS = constants.O_RDWR;
/** Flags for appending to a regular file, created when missing (what the 'a' flag string means). */
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;

/** What a refusal says the caller wanted to do. */
function actionOf(flags: number): 'reads' | 'writes' {
  return (flags & (constants.O_WRONLY | constants.O_RDWR)) !== 0 ? 'writes' : 'reads';
}

/** Throws for a non-regular file; missing files are left to the open (created with O_CREAT, else ENOENT). */
function refuseNonRegular(filePath: string, st: Stats | undefined, flags: number): void {
  const kind = st === undefined ? null : nonRegularKind(st);
  if (kind) throw new NotRegularFileError(filePath, kind.what, kind.code, actionOf(flags));
}

/** The open's error, with a symbolic link (ELOOP from O_NOFOLLOW) and a FIFO without reader (ENXIO) named. */
function openError(filePath: string, err: unknown, flags: number): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return new NotRegularFileError(filePath, 'a symbolic link', 'ELOOP', actionOf(flags));
  // ENXIO: a write-only, non-blocking open of a FIFO nobody reads (man 7 fifo); a device without its unit.
  if (code === 'ENXIO') return new NotRegularFileError(filePath, 'a FIFO (named pipe) or device', 'ENOTREG', actionOf(flags));
  return err;
}

/** lstat that reads a missing path as undefined. */
async function lstatOrUndefined(filePath: string): Promise<Stats | undefined> {
  try {
    return await lstat(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Opens `filePath` with `flags` (e.g. {@link READ_FLAGS}, {@link APPEND_FLAGS}) only when it is a regular
 * file (or missing and created by O_CREAT). Anything else rejects with {@link NotRegularFileError}, never
 * blocks; a missing file without O_CREAT rejects with ENOENT.
 */
export async function openRegular(filePath: string, flags: number, mode?: number): Promise<FileHandle> {
  refuseNonRegular(filePath, await lstatOrUndefined(filePath), flags);
  let fh: FileHandle;
  try {
    fh = await open(filePath, flags | NO_BLOCK_NO_FOLLOW, mode);
  } catch (err) {
    throw openError(filePath, err, flags);
  }
  try {
    refuseNonRegular(filePath, await fh.stat(), flags);
  } catch (err) {
    await fh.close();
    throw err;
  }
  return fh;
}

/** Synchronous {@link openRegular}: a blocked synchronous open would stop the whole main process, not one call. Returns a descriptor. */
export function openRegularSync(filePath: string, flags: number): number {
  let before: Stats | undefined;
  try {
    before = fs.lstatSync(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  refuseNonRegular(filePath, before, flags);
  let fd: number;
  try {
    fd = fs.openSync(filePath, flags | NO_BLOCK_NO_FOLLOW);
  } catch (err) {
    throw openError(filePath, err, flags);
  }
  try {
    refuseNonRegular(filePath, fs.fstatSync(fd), flags);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  return fd;
}
