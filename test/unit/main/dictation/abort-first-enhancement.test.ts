import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DictationController } from '../../../../src/main/dictation/controller.ts';
import type { DictationPorts, EnhancePort } from '../../../../src/main/ports/dictation-ports.ts';
import type { EnhanceOutcome } from '../../../../src/main/dictation/session-types.ts';
import { readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { fixtureConfig, RecordingSink, untilIdle, untilState } from './dictation-fixture.ts';

/**
 * Regression: the first enhancement of a spoken dictation could not be aborted. The transcription's
 * clean-up ran after it had already started the enhancement, and forgot the enhancement's abort handle,
 * so a mode switch (or a cancel) left the first request running and its answer could still be shown.
 */

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the first enhancement of a spoken dictation', () => {
  it('is aborted by a mode switch: the second mode answers, the first request is stopped', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    const calls: { mode: string; signal: AbortSignal; answer: () => void }[] = [];
    const outcome = (text: string, mode: string): EnhanceOutcome => ({ status: 'enhanced', text: `${mode}: ${text}`, enhanced: `${mode}: ${text}`, reason: null, mode, model: 'm', historyMode: mode, usage: null });
    const enhance: EnhancePort = {
      modes: () => ['proofread', 'translate'],
      enhance: ({ text, mode, signal }) => new Promise((resolve) => calls.push({ mode, signal, answer: () => resolve(outcome(text, mode)) })),
    };
    const config = fixtureConfig('http://127.0.0.1:9');
    const ports: DictationPorts = {
      dataDir: dir,
      config: () => config,
      capture: { start: () => undefined, stop: async () => undefined },
      asr: { transcribe: async () => ({ text: 'hello world', language: 'en' }), modelName: () => 'asr-test' },
      enhance,
      history: { log: async () => undefined },
      output: new RecordingSink(),
      ui: { emit: () => undefined, panel: () => undefined, sound: () => undefined },
    };
    const c = new DictationController(ports);
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    const { samples, sampleRate } = readPcm(speechWav('hello world'));
    const step = Math.round(sampleRate / 10);
    for (let at = 0, seq = 0; at < samples.length; at += step, seq++) c.frames(id, seq, sampleRate, samples.subarray(at, at + step));
    c.release();
    await untilState(c, 'enhancing');
    while (calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    c.setMode('translate', id);
    while (calls.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(calls.map((x) => [x.mode, x.signal.aborted])).toEqual([
      ['proofread', true],
      ['translate', false],
    ]);
    // The first request answers late: its answer is not wanted; the second one's is shown.
    calls[0]?.answer();
    calls[1]?.answer();
    await untilState(c, 'preview');
    expect(c.snapshot()).toMatchObject({ mode: 'translate', text: 'translate: hello world' });
    c.cancel();
    await untilIdle(c);
  });
});
