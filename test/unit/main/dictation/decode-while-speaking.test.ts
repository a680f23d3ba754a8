import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkerOptions } from '../../../../src/main/asr/asr-service.ts';
import { transcribeInChunks } from '../../../../src/main/asr/live-transcriber.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { hasTool } from '../../../helpers/audio-fixtures.ts';
import { dictationClip, EN_SENTENCES } from '../../../helpers/dictation-clip.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';
import { makeDictationFixture, untilIdle, type DictationFixture } from './dictation-fixture.ts';

/*
 * Transcribe while speaking through the controller and the real services: local whisper.cpp (random
 * weights) in the engine host, the real Silero VAD, the audio journal. The recording is fed in 100 ms
 * batches as the capture window sends them; chunks are decoded while the "key" is still held (partial
 * events), and the final text equals what decoding the whole clip through the same cuts gives.
 */

const ready = hasTool('espeak-ng') && hasTool('sox') && isEngineBuilt();
let fx: DictationFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

async function localFixture(over: Record<string, unknown> = {}): Promise<DictationFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-live-'));
  fs.mkdirSync(path.join(dir, 'models'), { recursive: true });
  fs.copyFileSync(ensureRandomWhisperModel(), path.join(dir, 'models', 'ggml-random.bin'));
  const f = await makeDictationFixture({}, { asr: { engine: 'local', language: 'en', local: { model: 'random', threads: 2, ...over } }, ai_enhance: { enabled: false }, output: { preview: false } }, dir);
  const close = f.close.bind(f);
  return Object.assign(f, { close: async () => (await close(), fs.rmSync(dir, { recursive: true, force: true })) });
}

/** Feeds `clip` as the capture window would, 100 ms at a time, yielding between batches. */
async function speak(f: DictationFixture, id: string, clip: Float32Array): Promise<void> {
  for (let at = 0, seq = 0; at < clip.length; at += 1600, seq++) {
    f.controller.frames(id, seq, 16000, clip.subarray(at, Math.min(clip.length, at + 1600)));
    await new Promise((r) => setImmediate(r));
  }
}

const partials = (f: DictationFixture): string[] => f.events.flatMap((e) => (e.kind === 'partial' ? [e.text] : []));

async function until(cond: () => boolean, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!ready)('decoding while speaking, through the controller (local whisper.cpp, random weights)', () => {
  const clip = ready ? dictationClip(EN_SENTENCES.slice(0, 4), { pauseSeconds: 0.8 }) : new Float32Array(0);

  it('chunks are decoded while the key is held; the pasted text equals the whole clip decoded through the same cuts', async () => {
    fx = await localFixture();
    const c = fx.controller;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    await speak(fx, id, clip);
    await until(() => partials(fx as DictationFixture).length >= 3);
    expect(c.state.state).toBe('recording');
    c.release();
    await untilIdle(c, 30_000);
    const pasted = fx.sink.delivered.map((d) => d.text);
    expect(pasted).toHaveLength(1);
    const reference = await transcribeInChunks(fx.graph.asr.engineFor(fx.config), clip, { language: 'en', temperature: 0 }, chunkerOptions(fx.config));
    expect(pasted[0]).toBe(reference.text);
    expect(reference.chunks).toHaveLength(4);
    // The live text grew chunk by chunk and ended as the transcript.
    const seen = partials(fx);
    for (let i = 1; i < seen.length; i++) expect((seen[i] ?? '').startsWith(seen[i - 1] ?? '')).toBe(true);
    expect(seen.at(-1)).toBe(reference.text);
    // The journaled audio is what was decoded: a retry from it cuts the same chunks.
    await fx.graph.history.settled();
    const journaled = c.audioJournal.readAudio(id);
    // Through the service's journal path (what a retry runs).
    const retry = await fx.graph.asr.transcribe(fx.config, { pcm: journaled, sessionId: 'retry-check' });
    expect(retry.text).toBe(reference.text);
    expect(fx.records()[0]).toMatchObject({ asr_text: reference.text, stt_model: 'whisper-random' });
  });

  it('cancel while speaking: decoding stops, nothing is pasted or logged', async () => {
    fx = await localFixture();
    const c = fx.controller;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    await speak(fx, id, clip.subarray(0, Math.round(clip.length / 2)));
    c.cancel();
    await untilIdle(c, 30_000);
    const before = partials(fx).length;
    await new Promise((r) => setTimeout(r, 500));
    expect(partials(fx).length).toBe(before);
    expect(fx.sink.delivered).toEqual([]);
    expect(fx.records()).toEqual([]);
  });

  it('decode_while_speaking off: nothing decoded before key-up (no live text), the text still arrives', async () => {
    fx = await localFixture({ decode_while_speaking: false });
    const c = fx.controller;
    c.press('hold');
    const id = c.snapshot().sessionId ?? '';
    await speak(fx, id, clip);
    c.release();
    await untilIdle(c, 30_000);
    expect(partials(fx)).toEqual([]);
    expect(fx.sink.delivered).toHaveLength(1);
    expect(fx.sink.delivered[0]?.text.length).toBeGreaterThan(0);
  });
});
