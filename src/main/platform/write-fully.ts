import fs from 'node:fs';

/*
 * Writes that never stop short. `write(2)` may write fewer bytes than asked without an error: on a
 * nearly full file system the kernel writes what fits (a 10,000-byte write to a full tmpfs returns
 * 8,192) and only the next call fails with ENOSPC. Node passes that count on as `bytesWritten`
 * (https://nodejs.org/api/fs.html#filehandlewritebuffer-offset-length-position) and `fs.writeSync`'s
 * return value (https://nodejs.org/api/fs.html#fswritesyncfd-buffer-offset-length-position); a caller
 * that ignores it fsyncs and renames a truncated file as if it were whole. `filehandle.writeFile`,
 * `filehandle.appendFile`, `fs.writeFileSync` and `fs.appendFileSync` already loop until done; these
 * helpers are for the positional `write`/`writeSync` calls.
 */

/** The one method of a FileHandle that `writeFully` uses (a test passes a fake that writes short). */
export interface PositionalWriter {
  write(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesWritten: number }>;
}

/** A write that made no progress: reported as ENOSPC, the code callers already treat as a full disk. */
function noProgressError(syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall} (0 bytes written)`), { code: 'ENOSPC', errno: -28, syscall });
}

/**
 * Writes all of `data` at `position` (or at the current position when null), looping over short
 * writes; a write that returns 0 bytes throws ENOSPC. The writes are awaited one after the other: Node's
 * docs call it unsafe to issue `filehandle.write()` again on the same file before the last one settled.
 */
export async function writeFully(fh: PositionalWriter, data: Uint8Array, position: number | null = null): Promise<void> {
  let done = 0;
  while (done < data.byteLength) {
    const at = position === null ? null : position + done;
    const { bytesWritten } = await fh.write(data, done, data.byteLength - done, at);
    if (bytesWritten <= 0) throw noProgressError('write');
    done += bytesWritten;
  }
}

/** Synchronous {@link writeFully} on a file descriptor (the crash journals and the raw recording file). */
export function writeFullySync(fd: number, data: Uint8Array, position: number | null = null): void {
  let done = 0;
  while (done < data.byteLength) {
    const at = position === null ? null : position + done;
    const bytesWritten = fs.writeSync(fd, data, done, data.byteLength - done, at);
    if (bytesWritten <= 0) throw noProgressError('write');
    done += bytesWritten;
  }
}
