/**
 * The audio journal as the owner of History's recordings (src/main/audio/journal.ts): a finished entry is
 * linked to its record's key, found by it, shared by a re-transcription kept beside it, deleted with the
 * last record that uses it, swept after the retention period, and counted for Settings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AudioJournal, audioJournalOf, recordKeysOf } from '../../../../src/main/audio/journal.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-journal-rec-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const clip = (seconds: number) => new Float32Array(16000 * seconds).map((_, i) => 0.1 * Math.sin(i / 9));

describe('audio journal: recordings linked to history records', () => {
  it('one instance per data folder', () => {
    expect(audioJournalOf(dir)).toBe(audioJournalOf(path.join(dir, '.')));
    expect(audioJournalOf(dir)).not.toBe(audioJournalOf(path.join(dir, 'other')));
  });

  it('complete with a record key: found by that key (also by a fresh instance reading the disk), with its WAV', () => {
    const j = new AudioJournal(dir);
    j.write('s1', clip(1), 16000);
    expect(j.recordingOf('R1')).toBeUndefined();
    j.complete('s1', 7, 'R1');
    expect(j.recordingOf('R1')).toMatchObject({ id: 's1', status: 'done' });
    const fresh = new AudioJournal(dir);
    expect(fresh.recordingOf('R1')?.id).toBe('s1');
    expect(fresh.readWav('s1').subarray(0, 4).toString()).toBe('RIFF');
    expect(fresh.recordingOf('R2')).toBeUndefined();
  });

  it('retention 0 keeps nothing, whatever the key', () => {
    const j = new AudioJournal(dir);
    j.write('s1', clip(1), 16000);
    j.complete('s1', 0, 'R1');
    expect(j.recordingOf('R1')).toBeUndefined();
    expect(fs.readdirSync(j.dir)).toEqual([]);
  });

  it('a recording shared by two records goes with the last of them', () => {
    const j = new AudioJournal(dir);
    j.write('s1', clip(1), 16000);
    j.complete('s1', 7, 'R1');
    j.link('s1', 'R2');
    expect(recordKeysOf(j.get('s1'))).toEqual(['R1', 'R2']);
    expect(j.forgetRecord('R1')).toBe(true);
    expect(j.recordingOf('R1')).toBeUndefined();
    expect(j.recordingOf('R2')?.id).toBe('s1');
    expect(j.hasAudio('s1')).toBe(true);
    expect(j.forgetRecord('R2')).toBe(true);
    expect(j.hasAudio('s1')).toBe(false);
    expect(j.forgetRecord('R2')).toBe(false);
  });

  it('linking a key to another entry moves it (the new record of a retried session)', () => {
    const j = new AudioJournal(dir);
    j.write('s1', clip(1), 16000);
    j.write('s2', clip(1), 16000);
    j.complete('s1', 7, 'R1');
    expect(j.recordingOf('R1')?.id).toBe('s1');
    j.link('s2', 'R1');
    expect(j.recordingOf('R1')?.id).toBe('s2');
    expect(recordKeysOf(j.get('s1'))).toEqual([]);
  });

  it('everything deleted: finished and linked recordings go, a failed one stays for its retry', () => {
    const j = new AudioJournal(dir);
    for (const id of ['a', 'b', 'c']) j.write(id, clip(1), 16000);
    j.complete('a', 7, 'RA');
    j.link('b', 'RB'); // a cancelled preview's record: still pending, but linked
    j.markFailed('c', 'network: down');
    expect(j.forgetAllRecords()).toBe(2);
    expect(j.list().map((e) => e.id)).toEqual(['c']);
    expect(j.recordingOf('RA')).toBeUndefined();
  });

  it('the sweep removes finished recordings past the retention period; usage counts what is left', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const j = new AudioJournal(dir, () => now);
    j.write('old', clip(1), 16000);
    j.complete('old', 7, 'R-old');
    now = new Date('2026-01-06T00:00:00Z');
    j.write('new', clip(2), 16000);
    j.complete('new', 7, 'R-new');
    const before = j.usage();
    expect(before.count).toBe(2);
    // 16-bit mono: 2 bytes a sample plus the 44-byte header, per file.
    expect(before.bytes).toBe(16000 * 2 + 44 + 32000 * 2 + 44);
    now = new Date('2026-01-09T00:00:00Z');
    expect(j.prune(7)).toBe(1);
    expect(j.recordingOf('R-old')).toBeUndefined();
    expect(j.recordingOf('R-new')?.id).toBe('new');
    expect(j.usage()).toEqual({ count: 1, bytes: 32000 * 2 + 44 });
  });

  it('ensure writes once and reports a refusing disk instead of throwing', () => {
    const j = new AudioJournal(dir);
    expect(j.ensure('e1', clip(1), 16000, { engine: 'remote' })).toBe(true);
    const first = fs.readFileSync(path.join(j.dir, 'e1.json'), 'utf8');
    expect(j.ensure('e1', clip(2), 16000)).toBe(true);
    expect(fs.readFileSync(path.join(j.dir, 'e1.json'), 'utf8')).toBe(first);
    fs.rmSync(j.dir, { recursive: true });
    fs.writeFileSync(j.dir, 'a file where the folder should be');
    expect(j.ensure('e2', clip(1), 16000)).toBe(false);
  });
});
