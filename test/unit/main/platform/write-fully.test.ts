import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDiskError } from '../../../../src/main/history/store/store-types.ts';
import { writeFileAtomicSync } from '../../../../src/main/platform/durable-fs.ts';
import { writeFully, writeFullySync, type PositionalWriter } from '../../../../src/main/platform/write-fully.ts';
import { useTempDirs } from '../../../helpers/history-fixtures.ts';

/**
 * Short writes: the kernel may write fewer bytes than asked without an error (a nearly full disk), and
 * the caller must write the rest. A fake handle writes at most `step` bytes per call, like a full tmpfs.
 */

const tempDir = useTempDirs();

afterEach(() => {
  vi.restoreAllMocks();
});

/** A file in memory whose `write` stores at most `step` bytes per call (0: makes no progress). */
function shortWritingHandle(step: number): PositionalWriter & { readonly bytes: () => Buffer; readonly calls: number[] } {
  let file = Buffer.alloc(0);
  let cursor = 0;
  const calls: number[] = [];
  return {
    calls,
    bytes: () => file,
    write: async (buffer, offset, length, position) => {
      const n = Math.min(step, length);
      const at = position ?? cursor;
      calls.push(at);
      if (file.length < at + n) file = Buffer.concat([file, Buffer.alloc(at + n - file.length)]);
      Buffer.from(buffer.buffer, buffer.byteOffset + offset, n).copy(file, at);
      cursor = at + n;
      return { bytesWritten: n };
    },
  };
}

function pattern(n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => (i * 7) % 251));
}

describe('writeFully', () => {
  it('writes every byte at the right place through a handle that writes 8,192 bytes per call', async () => {
    const fh = shortWritingHandle(8192);
    const data = pattern(30_000);
    await writeFully(fh, data, 100);
    expect(fh.bytes().subarray(100)).toEqual(data);
    expect(fh.calls).toEqual([100, 8292, 16484, 24676]);
  });

  it('continues at the current position when no position is given (append mode)', async () => {
    const fh = shortWritingHandle(3);
    await writeFully(fh, Buffer.from('hello, world'));
    await writeFully(fh, Buffer.from('!'));
    expect(fh.bytes().toString()).toBe('hello, world!');
  });

  it('writes a view into a larger buffer from its own start (byteOffset honoured)', async () => {
    const fh = shortWritingHandle(5);
    const whole = Buffer.from('xxxxPAYLOAD-BYTESyyyy');
    await writeFully(fh, whole.subarray(4, 17), 0);
    expect(fh.bytes().toString()).toBe('PAYLOAD-BYTES');
  });

  it('reports a write that makes no progress as ENOSPC, a disk error the history store degrades on', async () => {
    const err = await writeFully(shortWritingHandle(0), Buffer.from('abc'), 0).catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(isDiskError(err)).toBe(true);
  });
});

/** Makes `fs.writeSync` write at most `step` bytes per call, as the kernel does on a nearly full disk. */
function shortWriteSync(step: number): void {
  const real = fs.writeSync.bind(fs) as (fd: number, b: Uint8Array, off: number, len: number, pos: number | null) => number;
  vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buffer: Uint8Array, offset?: number, length?: number, position?: number | null) => {
    const off = offset ?? 0;
    const len = length ?? buffer.byteLength - off;
    return real(fd, buffer, off, Math.min(step, len), position ?? null);
  }) as typeof fs.writeSync);
}

describe('writeFullySync', () => {
  it('writes every byte through a writeSync that writes 4,096 bytes per call', () => {
    const file = path.join(tempDir(), 'out.bin');
    const data = pattern(20_000);
    const fd = fs.openSync(file, 'w');
    try {
      shortWriteSync(4096);
      writeFullySync(fd, data, 0);
    } finally {
      vi.restoreAllMocks();
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file)).toEqual(data);
  });

  it('throws ENOSPC when a write makes no progress', () => {
    const fd = fs.openSync(path.join(tempDir(), 'out.bin'), 'w');
    try {
      shortWriteSync(0);
      expect(() => writeFullySync(fd, Buffer.from('abc'))).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    } finally {
      vi.restoreAllMocks();
      fs.closeSync(fd);
    }
  });
});

describe('writeFileAtomicSync (the session and audio crash journals)', () => {
  it('never renames a short-written copy into place: the whole journal entry lands', () => {
    const file = path.join(tempDir(), 'entry.wav');
    const data = pattern(50_000);
    shortWriteSync(8192);
    writeFileAtomicSync(file, data);
    vi.restoreAllMocks();
    expect(fs.readFileSync(file).length).toBe(data.length);
    expect(fs.readFileSync(file)).toEqual(data);
  });
});
