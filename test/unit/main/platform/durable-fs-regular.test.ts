import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendDurable, truncateDurable } from '../../../../src/main/platform/durable-fs.ts';
import { APPEND_FLAGS, openRegularSync, READ_FLAGS } from '../../../../src/main/platform/regular-open.ts';
import { useTempDirs } from '../../../helpers/history-fixtures.ts';
import { settles, useFifos } from '../../../helpers/fifo-fixtures.ts';

/**
 * The shared durable append (and truncate) writes only to a regular file: opening a FIFO for writing
 * blocks until something reads it (man 7 fifo), and a symbolic link would send the bytes elsewhere.
 * Both are refused at once with an OS-style code, so callers treat them as a state of the disk.
 */

const tmp = useTempDirs();
const mkfifo = useFifos();

describe('appendDurable and truncateDurable refuse what is not a regular file', () => {
  it('a FIFO: rejected at once with ENOTREG, naming it', async () => {
    const fifo = path.join(tmp(), 'data.jsonl');
    mkfifo(fifo);
    // Before the fix: the append's open waited for a reader forever.
    await expect(settles(appendDurable(fifo, 'x\n'))).rejects.toMatchObject({ code: 'ENOTREG', message: expect.stringMatching(/is a FIFO \(named pipe\), not a regular file; Tingxie only writes regular files here/) });
    await expect(settles(truncateDurable(fifo, 0))).rejects.toMatchObject({ code: 'ENOTREG' });
  }, 15_000);

  it('a symbolic link: rejected with ELOOP, its target untouched', async () => {
    const dir = tmp();
    const target = path.join(dir, 'target.jsonl');
    fs.writeFileSync(target, 'kept\n');
    const link = path.join(dir, 'data.jsonl');
    fs.symlinkSync(target, link);
    // Before the fix: the bytes were appended to the target.
    await expect(appendDurable(link, 'x\n')).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(truncateDurable(link, 0)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(fs.readFileSync(target, 'utf8')).toBe('kept\n');
  });

  it('a regular file is appended to (and created when missing) as before', async () => {
    const file = path.join(tmp(), 'data.jsonl');
    expect(await appendDurable(file, 'a\n')).toBe(0);
    expect(await appendDurable(file, 'b\n')).toBe(2);
    await truncateDurable(file, 2);
    expect(fs.readFileSync(file, 'utf8')).toBe('a\n');
    await expect(appendDurable(path.join(tmp(), 'missing-folder', 'x.jsonl'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('openRegularSync', () => {
  it('refuses a FIFO at once, for reading and for writing', () => {
    const fifo = path.join(tmp(), 'data.jsonl');
    mkfifo(fifo);
    expect(() => openRegularSync(fifo, READ_FLAGS)).toThrow(/FIFO .* Tingxie only reads regular files here/);
    expect(() => openRegularSync(fifo, APPEND_FLAGS)).toThrow(/FIFO .* Tingxie only writes regular files here/);
  });
});
