import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiTestServer, type OpenAiTestServer } from '../../../helpers/openai-test-server.ts';
import { makeDictationFixture, untilIdle, type DictationFixture } from './dictation-fixture.ts';

/** kill -9 in the middle of a dictation, then the next start offers the session and finishes it. */

const child = path.join(import.meta.dirname, 'kill-child.ts');
let server: OpenAiTestServer | undefined;
let fx: DictationFixture | undefined;
let dir = '';
afterEach(async () => {
  await fx?.close();
  await server?.close();
  fx = undefined;
  server = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the child until it prints `at:<state>`, then SIGKILLs it `delayMs` later; returns the session id. */
function runAndKill(dataDir: string, baseURL: string, stopAt: string, delayMs = 50): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, dataDir, baseURL, stopAt], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`child never reached ${stopAt}: ${out} ${err}`));
    }, 20_000);
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = new RegExp(`at:${stopAt}:(\\w+)`).exec(out);
      if (m) {
        // Give the step's journal write its moment (it is synchronous right after the state event).
        setTimeout(() => p.kill('SIGKILL'), delayMs);
        p.once('exit', (_code, signal) => {
          clearTimeout(timer);
          if (signal !== 'SIGKILL') reject(new Error(`child exited by itself: ${signal}`));
          else resolve(m[1] ?? '');
        });
      }
    });
  });
}

describe('nothing is lost when the app is killed mid-dictation', () => {
  it('killed while the LLM call is in flight: the transcript is recovered and finished at the next start', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    // Phase 1: the chat call stalls forever, so the child sits in `enhancing` when killed.
    server = await startOpenAiTestServer({ transcription: () => ({ kind: 'text', text: 'words before the crash' }), chat: () => ({ kind: 'fault', fault: { kind: 'stall-before-headers' } }) });
    const id = await runAndKill(dir, server.baseURL, 'enhancing');
    await server.close();
    server = undefined;
    expect(fs.existsSync(path.join(dir, 'journal', `${id}.wav`))).toBe(true);

    // Phase 2: the next start, with a working model.
    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'unused' }), chat: () => ({ kind: 'text', content: 'Words before the crash.' }) }, { output: { preview: false } }, dir);
    const offered = fx.controller.recoverable();
    expect(offered).toEqual([expect.objectContaining({ id, stage: 'enhancing', asrText: 'words before the crash' })]);
    fx.controller.recover(id, 'finish');
    await untilIdle(fx.controller);
    await fx.graph.history.settled();
    expect(fx.sink.delivered).toEqual([{ text: 'Words before the crash.', action: 'paste' }]);
    expect(fx.records()).toMatchObject([{ asr_text: 'words before the crash', final_text: 'Words before the crash.' }]);
    expect(fx.controller.recoverable()).toEqual([]);
    expect(fx.server.requests.filter((r) => r.path.includes('transcriptions'))).toHaveLength(0); // the transcript was reused
  });

  // Each step after the text leaves the app, killed at once (0 ms) and a little later (the log's own
  // write then races the kill): before the record was journaled ahead of the output, a kill as the
  // session ended lost the dictation in 5 of 6 runs — no record, no offer.
  for (const stopAt of ['output', 'pasted', 'done'] as const) {
    it(`killed at "${stopAt}": the dictation is in history or offered, never both, never neither`, async () => {
      const outcomes: string[] = [];
      for (const delayMs of [0, 0, 2, 5, 10, 20]) {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
        server = await startOpenAiTestServer({ transcription: () => ({ kind: 'text', text: 'pasted words' }), chat: () => ({ kind: 'text', content: 'Pasted words.' }) });
        const id = await runAndKill(dir, server.baseURL, stopAt, delayMs);
        await server.close();
        server = undefined;

        fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'unused' }), chat: () => ({ kind: 'text', content: 'unused' }) }, { output: { preview: false } }, dir);
        await fx.controller.logJournaledRecords(); // what the app does at start, before offering recovery
        await fx.graph.history.settled();
        const inHistory = fx.records().filter((r) => r.final_text === 'Pasted words.');
        const offered = fx.controller.recoverable().filter((r) => r.id === id);
        expect(inHistory.length + offered.length, `delay ${delayMs} ms: history ${inHistory.length}, offered ${offered.length}`).toBe(1);
        if (stopAt !== 'output') expect(inHistory).toHaveLength(1); // handed out: it belongs in history
        // A second start changes nothing: the journal was settled.
        expect(await fx.controller.logJournaledRecords()).toBe(0);
        outcomes.push(inHistory.length === 1 ? 'history' : 'offered');
        await fx.close();
        fx = undefined;
        fs.rmSync(dir, { recursive: true, force: true });
        dir = '';
      }
      expect(outcomes).toHaveLength(6);
    }, 60_000);
  }

  it('killed while the key is still held: the raw frames on disk are transcribed at the next start', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    server = await startOpenAiTestServer({});
    const id = await runAndKill(dir, server.baseURL, 'recording');
    await server.close();
    server = undefined;
    expect(fs.statSync(path.join(dir, 'sessions', `${id}.f32`)).size).toBeGreaterThan(16000 * 4);

    fx = await makeDictationFixture({ transcription: () => ({ kind: 'text', text: 'recovered audio' }), chat: () => ({ kind: 'text', content: 'Recovered audio.' }) }, { output: { preview: false } }, dir);
    expect(fx.controller.recoverable()).toEqual([expect.objectContaining({ id, stage: 'recording', asrText: null })]);
    fx.controller.recover(id, 'finish');
    await untilIdle(fx.controller);
    expect(fx.sink.delivered).toEqual([{ text: 'Recovered audio.', action: 'paste' }]);
    expect(fx.server.requests.filter((r) => r.path.includes('transcriptions'))).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'sessions', `${id}.f32`))).toBe(false);
  });
});
