import { afterAll, describe, expect, it } from 'vitest';
import { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { LiveTranscription, transcribeInChunks, type LiveResult } from '../../../../src/main/asr/live-transcriber.ts';
import { AsrError } from '../../../../src/main/asr/types.ts';
import { hasTool } from '../../../helpers/audio-fixtures.ts';
import { dictationClip, EN_SENTENCES } from '../../../helpers/dictation-clip.ts';
import { ensureRandomSenseVoiceModel } from '../../../helpers/sense-voice-model.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

/*
 * Transcribe while speaking, on the real engines in the real engine host (whisper.cpp and sherpa-onnx
 * SenseVoice, random weights) with the real Silero VAD: the same dictation decoded live (fed in 100 ms
 * batches, chunks decoded while the rest is still arriving) and decoded whole afterwards gives the same
 * chunk boundaries, the same per-chunk texts and the same joined text; the model loads once; a host
 * that dies mid-chunk costs nothing; cancel stops the queue.
 */

const tools = hasTool('espeak-ng') && hasTool('sox');
const chunker = { trimEdges: false };
const engines: LocalWhisperEngine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((e) => e.dispose()));
});

function whisper(): LocalWhisperEngine {
  const e = new LocalWhisperEngine({ modelPath: ensureRandomWhisperModel(), threads: 2, idleUnloadMs: 0 });
  engines.push(e);
  return e;
}
function senseVoice(): LocalWhisperEngine {
  const e = new LocalWhisperEngine({ modelPath: ensureRandomSenseVoiceModel().model, threads: 2, idleUnloadMs: 0, sherpa: { family: 'sense-voice' } });
  engines.push(e);
  return e;
}

const until = async (cond: () => boolean, ms = 30_000): Promise<void> => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Feeds `clip` in 100 ms batches, letting the engine work between them; returns texts seen before the end. */
async function decodeLive(engine: LocalWhisperEngine, clip: Float32Array, language: string): Promise<{ result: LiveResult; textsBeforeEnd: string[] }> {
  const texts: string[] = [];
  const live = new LiveTranscription({ engine, call: { language, temperature: 0 }, chunker, onText: (t) => texts.push(t) });
  for (let at = 0; at < clip.length; at += 1600) {
    live.push(clip.subarray(at, Math.min(clip.length, at + 1600)));
    await new Promise((r) => setImmediate(r));
  }
  // The key is still held: the chunks that closed at pauses are decoded now, before key-up.
  await until(() => texts.length >= 3);
  const textsBeforeEnd = [...texts];
  live.end();
  return { result: await live.result(), textsBeforeEnd };
}

describe.skipIf(!tools)('LiveTranscription on the real engines (random weights)', () => {
  const clip = tools ? dictationClip(EN_SENTENCES.slice(0, 4), { pauseSeconds: 0.8 }) : new Float32Array(0);

  for (const [name, make, language] of [['whisper.cpp', whisper, 'en'], ['sherpa-onnx SenseVoice', senseVoice, 'en']] as const) {
    it(`${name}: decoded while speaking = decoded whole afterwards (boundaries, chunk texts, joined text); loads once`, async () => {
      const engine = make();
      const { result: live, textsBeforeEnd } = await decodeLive(engine, clip, language);
      const whole = await transcribeInChunks(engine, clip, { language, temperature: 0 }, chunker);
      expect(live.chunks.length).toBe(4);
      expect(live.chunks.map((c) => [c.startMs, c.endMs])).toEqual(whole.chunks.map((c) => [c.startMs, c.endMs]));
      expect(live.chunks.map((c) => c.text)).toEqual(whole.chunks.map((c) => c.text));
      expect(live.text).toBe(whole.text);
      expect(live.text.length).toBeGreaterThan(0);
      // At least three sentences were decoded before the recording ended (the last one too when a pause followed it).
      expect(textsBeforeEnd.length).toBeGreaterThanOrEqual(3);
      expect(live.chunks.filter((c) => c.live).length).toBeGreaterThanOrEqual(3);
      // Segments are placed on the clip's time line, in order.
      for (let i = 1; i < live.segments.length; i++) expect(live.segments[i]?.startMs).toBeGreaterThanOrEqual(live.segments[i - 1]?.startMs ?? 0);
      expect(live.segments.at(-1)?.startMs).toBeGreaterThanOrEqual(live.chunks.at(-1)?.startMs ?? Infinity);
      expect(live.language).toBe(language);
      expect(engine.status()).toMatchObject({ loads: 1, spawns: 1, crashes: 0 });
    });
  }

  it('a host killed while decoding a chunk: that chunk is decoded again on a fresh host, nothing lost', async () => {
    const engine = whisper();
    const reference = await transcribeInChunks(engine, clip, { language: 'en' }, chunker);
    const texts: string[] = [];
    const live = new LiveTranscription({ engine, call: { language: 'en' }, chunker, onText: (t) => texts.push(t) });
    live.push(clip);
    await until(() => texts.length >= 1 && engine.status().state === 'busy');
    const pid = engine.status().pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid as number, 'SIGKILL');
    const r = await live.result();
    expect(engine.status().crashes).toBe(1);
    expect(r.chunks.map((c) => c.text)).toEqual(reference.chunks.map((c) => c.text));
    expect(r.text).toBe(reference.text);
  });

  it('cancel: queued chunks are not decoded and result() says cancelled', async () => {
    const engine = senseVoice();
    const live = new LiveTranscription({ engine, call: { language: 'en' }, chunker });
    live.push(clip);
    live.cancel();
    await expect(live.result()).rejects.toSatisfy((e) => e instanceof AsrError && e.code === 'cancelled');
  });
});
