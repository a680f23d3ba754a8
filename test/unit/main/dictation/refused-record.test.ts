import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';
import { makeDictationFixture, untilIdle, type DictationFixture } from './dictation-fixture.ts';

/**
 * A record the disk refused survives a quit: only the history file is read-only (a read-only tmpfs
 * file bind-mounted over it, so EROFS comes from the kernel) while the rest of the data folder is
 * writable. The dictation is pasted, its record waits in the store's memory — and in the dictation
 * journal, which the next start logs from. Before, the journal was finished as soon as the record
 * was handed to the store, and quitting lost it.
 */

const mounts: SmallFs[] = [];
const binds: string[] = [];
let fx: DictationFixture | undefined;
afterAll(async () => {
  await fx?.close().catch(() => undefined);
  for (const b of binds.splice(0)) execFileSync('umount', [b]);
  for (const m of mounts.splice(0)) m.unmount();
});

const server = { transcription: () => ({ kind: 'text' as const, text: 'refused words' }), chat: () => ({ kind: 'text' as const, content: 'Refused words.' }) };

describe('a record the disk refused', () => {
  it('is journaled with the dictation and logged at the next start, once', async (ctx) => {
    const small = mountSmallFs(1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    mounts.push(small);
    const dir = fs.mkdtempSync(path.join(path.dirname(small.dir), 'tingxie-refused-'));
    const first = await makeDictationFixture(server, { output: { preview: false } }, dir);
    await first.close();
    const history = path.join(dir, 'conversation_history.jsonl');
    const readOnlyCopy = path.join(small.dir, 'history.jsonl');
    fs.writeFileSync(readOnlyCopy, '');
    fs.writeFileSync(history, '', { flag: 'a' });
    execFileSync('mount', ['--bind', readOnlyCopy, history]);
    binds.push(history);
    small.remount('ro');

    fx = await makeDictationFixture(server, { output: { preview: false } }, dir);
    const c = fx.controller;
    c.press('hold');
    const { samples, sampleRate } = readPcm(speechWav('refused words'));
    fx.feed(c.snapshot().sessionId ?? '', samples, sampleRate);
    c.release();
    await untilIdle(c);
    expect(fx.sink.delivered).toEqual([{ text: 'Refused words.', action: 'paste' }]);
    const notices = fx.events.flatMap((e) => (e.kind === 'notice' ? [e.notice] : []));
    expect(notices).toContainEqual(expect.objectContaining({ code: 'history-degraded', pending: 1 }));
    expect(fx.records()).toEqual([]);
    expect(c.recoverable()).toEqual([]); // it reached the user: nothing to redo
    await fx.close(); // the user quits while the disk still refuses
    fx = undefined;

    execFileSync('umount', [history]);
    binds.splice(binds.indexOf(history), 1);
    fx = await makeDictationFixture(server, { output: { preview: false } }, dir);
    expect(await fx.controller.logJournaledRecords()).toBe(1);
    await fx.graph.history.settled();
    expect(fx.records()).toEqual([expect.objectContaining({ asr_text: 'refused words', final_text: 'Refused words.', outcome: 'direct' })]);
    expect(fx.controller.recoverable()).toEqual([]);
    expect(await fx.controller.logJournaledRecords()).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'sessions')).filter((f) => f.endsWith('.json'))).toEqual([]);
    await fx.close();
    fx = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
