import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempIndexPath } from '../../../../src/main/history/history-service.ts';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';
import { makeDictationFixture, untilIdle, type DictationFixture } from './dictation-fixture.ts';

/**
 * A whole dictation, real services, with the data folder on a file system the test makes read-only
 * (EROFS from the kernel): the app starts degraded, the dictation still reaches the user (pasted), and
 * its record waits in memory until the folder is writable again, then lands in the JSONL.
 */

const mounts: SmallFs[] = [];
let fx: DictationFixture | undefined;
afterAll(async () => {
  await fx?.close().catch(() => undefined);
  for (const m of mounts.splice(0)) {
    // The read-only start builds its index in the OS temp folder.
    fs.rmSync(path.dirname(tempIndexPath(path.join(m.dir, 'data'))), { recursive: true, force: true });
    m.unmount();
  }
});

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('dictation with a read-only data folder', () => {
  it('starts, pastes the dictation, shows the degraded state, and saves the record once the folder is writable', async (ctx) => {
    const small = mountSmallFs(16 * 1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    mounts.push(small);
    const dir = path.join(small.dir, 'data');
    fs.mkdirSync(dir);
    const server = { transcription: () => ({ kind: 'text' as const, text: 'read only words' }), chat: () => ({ kind: 'text' as const, content: 'Read-only words.' }) };
    // A first start lays out the folder (modes, index), as a normal run would have.
    const first = await makeDictationFixture(server, { output: { preview: false } }, dir);
    await first.close();
    small.remount('ro');

    // Before the fix: the history service threw EROFS here, so the app could not start.
    fx = await makeDictationFixture(server, { output: { preview: false } }, dir);
    expect(fx.graph.history.health?.state).toBe('read-only');
    const c = fx.controller;
    c.press('hold');
    const { samples, sampleRate } = readPcm(speechWav('read only words'));
    fx.feed(c.snapshot().sessionId ?? '', samples, sampleRate);
    c.release();
    await untilIdle(c);
    expect(fx.sink.delivered).toEqual([{ text: 'Read-only words.', action: 'paste' }]);
    const notices = fx.events.flatMap((e) => (e.kind === 'notice' ? [e.notice] : []));
    expect(notices).toContainEqual(expect.objectContaining({ code: 'history-degraded', state: 'read-only', pending: 1 }));
    expect(notices.map((n) => n.code)).not.toContain('history-save-failed');
    expect(fx.records()).toEqual([]);

    small.remount('rw');
    await until(() => fx?.graph.history.health === null);
    await fx.graph.history.settled();
    expect(fx.records()).toEqual([expect.objectContaining({ final_text: 'Read-only words.', asr_text: 'read only words' })]);
  }, 60_000);
});
