import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AudioJournal } from '../../../../src/main/audio/journal.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('audio journal', () => {
  it('writes audio + state under <dataDir>/journal and reads the audio back exactly', () => {
    const j = new AudioJournal(dir);
    const pcm = new Float32Array([0, 0.5, -0.5, 0.25]);
    const e = j.write('s1', pcm, 16000, { mode: 'proofread' });
    expect(e).toMatchObject({ id: 's1', status: 'pending', meta: { mode: 'proofread' } });
    expect(fs.existsSync(path.join(dir, 'journal', 's1.wav'))).toBe(true);
    expect(j.readAudio('s1')).toEqual(pcm);
    expect(fs.readdirSync(path.join(dir, 'journal')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps failed entries for retry, deletes completed ones per retention', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const j = new AudioJournal(dir, () => now);
    j.write('a', new Float32Array(16), 16000);
    j.write('b', new Float32Array(16), 16000);
    j.write('c', new Float32Array(16), 16000);
    j.markFailed('a', 'timeout: no answer');
    j.complete('b', 7);
    j.complete('c', 0);
    expect(j.hasAudio('c')).toBe(false);
    expect(j.unfinished().map((e) => e.id)).toEqual(['a']);
    expect(j.get('a')?.error).toBe('timeout: no answer');
    now = new Date('2026-01-05T00:00:00Z');
    expect(j.prune(7)).toBe(0);
    now = new Date('2026-01-09T00:00:00Z');
    expect(j.prune(7)).toBe(1);
    expect(j.hasAudio('b')).toBe(false);
    expect(j.hasAudio('a')).toBe(true); // failed audio is never pruned
  });

  it('rejects ids that could escape the folder', () => {
    const j = new AudioJournal(dir);
    expect(() => j.write('../x', new Float32Array(1), 16000)).toThrow(/bad journal id/);
    expect(j.list()).toEqual([]);
  });
});
