import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogger, formatLine } from '../../../../src/main/platform/logger.ts';

const fixed = (): Date => new Date('2026-01-02T03:04:05.006Z');

describe('file logger (real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tingxie-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes JSON lines with level, scope and fields, creating the folder, and drops lines below the level', () => {
    const log = createFileLogger({ dir: join(dir, 'logs'), level: 'info', now: fixed });
    log.debug('not written');
    log.child('ipc').warn('refused', { channel: 'config:set', err: new Error('boom') });
    log.info('plain');
    const lines = readFileSync(join(dir, 'logs', 'main.log'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ time: '2026-01-02T03:04:05.006Z', level: 'warn', scope: 'ipc', msg: 'refused', channel: 'config:set' });
    expect(lines[0].err).toMatchObject({ name: 'Error', message: 'boom' });
    expect(lines[1]).toEqual({ time: '2026-01-02T03:04:05.006Z', level: 'info', msg: 'plain' });
  });

  it('text format keeps one line per event', () => {
    const log = createFileLogger({ dir, format: 'text', now: fixed });
    log.child('app').child('tray').error('two\nlines', { n: 1 });
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe('2026-01-02T03:04:05.006Z ERROR [app.tray] two\\nlines {"n":1}\n');
  });

  it('rotates exactly at the size boundary and keeps N old files', () => {
    const line = formatLine('json', fixed(), 'info', undefined, 'x'.repeat(50), undefined);
    const len = Buffer.byteLength(line);
    // Room for exactly 3 lines per file.
    const log = createFileLogger({ dir, maxBytes: len * 3, keep: 2, now: fixed });
    for (let i = 0; i < 3; i++) log.info('x'.repeat(50));
    expect(statSync(join(dir, 'main.log')).size).toBe(len * 3);
    expect(existsSync(join(dir, 'main.log.1'))).toBe(false);
    log.info('x'.repeat(50)); // the 4th line would pass the limit: rotate first
    expect(statSync(join(dir, 'main.log')).size).toBe(len);
    expect(statSync(join(dir, 'main.log.1')).size).toBe(len * 3);
    for (let i = 0; i < 3 * 4; i++) log.info('x'.repeat(50));
    expect(readdirSync(dir).sort()).toEqual(['main.log', 'main.log.1', 'main.log.2']);
    // Nothing was lost in the kept files: each is full.
    expect(statSync(join(dir, 'main.log.2')).size).toBe(len * 3);
  });

  it('continues an existing file across restarts and counts its size', () => {
    const line = formatLine('json', fixed(), 'info', undefined, 'a', undefined);
    const len = Buffer.byteLength(line);
    createFileLogger({ dir, maxBytes: len * 2, now: fixed }).info('a');
    const second = createFileLogger({ dir, maxBytes: len * 2, now: fixed });
    second.info('a');
    expect(existsSync(join(dir, 'main.log.1'))).toBe(false);
    second.info('a');
    expect(statSync(join(dir, 'main.log.1')).size).toBe(len * 2);
  });

  it('never throws on a full disk: lines go to the fallback instead', () => {
    if (!existsSync('/dev/full')) return; // /dev/full (ENOSPC on every write) is Linux-only
    symlinkSync('/dev/full', join(dir, 'main.log'));
    const fallback: string[] = [];
    const log = createFileLogger({ dir, fallback: (l) => fallback.push(l), now: fixed });
    expect(() => log.error('disk is full', { a: 1 })).not.toThrow();
    log.info('again');
    expect(fallback[0]).toMatch(/cannot write log .*main\.log .*ENOSPC/);
    expect(fallback.filter((l) => l.startsWith('{'))).toHaveLength(2);
    expect(fallback.filter((l) => l.startsWith('tingxie:'))).toHaveLength(1); // said once, not per line
  });

  it('never throws when the log folder cannot be created, or fields cannot be serialised', () => {
    const fallback: string[] = [];
    // A regular file where the folder should be.
    const blocker = join(dir, 'file');
    writeFileSync(blocker, '');
    const log = createFileLogger({ dir: join(blocker, 'logs'), fallback: (l) => fallback.push(l) });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => log.info('cyclic', { cyclic })).not.toThrow();
    expect(fallback.some((l) => l.includes('cannot create log folder'))).toBe(true);
    expect(fallback.some((l) => l.includes('unserialisableFields'))).toBe(true);
  });
});
