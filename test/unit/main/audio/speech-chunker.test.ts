import { describe, expect, it } from 'vitest';
import { SpeechChunker, type ChunkerOptions, type SpeechChunk } from '../../../../src/main/audio/speech-chunker.ts';
import { detectSpeech, openSpeechDetector } from '../../../../src/main/audio/vad.ts';
import { hasTool } from '../../../helpers/audio-fixtures.ts';
import { dictationClip, EN_SENTENCES } from '../../../helpers/dictation-clip.ts';

/*
 * The chunker runs the real Silero VAD (sherpa-onnx) over espeak-ng dictations with pauses. What matters:
 * a live feed in 100 ms batches cuts exactly where a whole-clip pass cuts, the chunks are contiguous (no
 * sample between the first and the last is dropped), every cut falls in a pause, and the edges follow
 * audio.vad_enabled.
 */

const tools = hasTool('espeak-ng') && hasTool('sox');
const RATE = 16000;

function feedLive(clip: Float32Array, opts: { trimEdges: boolean; minChunkSeconds?: number }): { chunks: SpeechChunk[]; keptStart: number; keptEnd: number; speech: boolean } {
  const c = new SpeechChunker(opts);
  const chunks: SpeechChunk[] = [];
  for (let at = 0; at < clip.length; at += 1600) chunks.push(...c.push(clip.subarray(at, Math.min(clip.length, at + 1600))));
  const end = c.end();
  return { chunks: [...chunks, ...end.chunks], keptStart: end.keptStart, keptEnd: end.keptEnd, speech: end.speech };
}

/** A whole clip pushed at once: what a retry from the journaled clip does. */
function chunkSpeech(samples: Float32Array, opts: ChunkerOptions): { readonly chunks: readonly SpeechChunk[] } {
  const c = new SpeechChunker(opts);
  const chunks = c.push(samples);
  return { chunks: [...chunks, ...c.end().chunks] };
}

const bounds = (cs: readonly SpeechChunk[]): Array<[number, number]> => cs.map((c) => [c.start, c.end]);

describe.skipIf(!tools)('SpeechChunker (real Silero VAD on espeak-ng speech)', () => {
  const clip = tools ? dictationClip(EN_SENTENCES.slice(0, 5), { pauseSeconds: 0.8 }) : new Float32Array(0);

  it('cuts a live feed exactly where a whole-clip pass cuts, one chunk per sentence, contiguous, cuts in pauses', () => {
    const live = feedLive(clip, { trimEdges: false });
    const whole = chunkSpeech(clip, { trimEdges: false });
    expect(bounds(live.chunks)).toEqual(bounds(whole.chunks));
    expect(live.chunks.map((c) => c.samples)).toEqual(whole.chunks.map((c) => c.samples));
    expect(live.chunks).toHaveLength(5);
    // Contiguous from 0 to the end of the clip (edges kept with vad off): nothing said is dropped.
    expect(live.chunks[0]?.start).toBe(0);
    for (let i = 1; i < live.chunks.length; i++) expect(live.chunks[i]?.start).toBe(live.chunks[i - 1]?.end);
    // The end: the clip's, or a cut after the last words with only a short silence (< 1.5 s) left out.
    const spans = detectSpeech(clip);
    expect(live.chunks.at(-1)?.end).toBe(live.keptEnd);
    expect(live.keptStart).toBe(0);
    expect(clip.length - live.keptEnd).toBeLessThan(1.5 * RATE);
    expect(spans.every((s) => s.end <= live.keptEnd)).toBe(true);
    // Every cut falls in silence: no speech span of the whole clip crosses it.
    for (const c of live.chunks.slice(0, -1)) expect(spans.some((s) => s.start < c.end && s.end > c.end)).toBe(false);
    // Each chunk's samples are the clip's.
    for (const c of live.chunks) expect(c.samples).toEqual(clip.slice(c.start, c.end));
    expect(live.chunks.map((c) => c.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('with vad_enabled trims the edges to the speech (plus 30 ms) and still cuts in the same places inside', () => {
    const padded = new Float32Array(clip.length + 2 * RATE);
    padded.set(clip, RATE); // one more second of silence on each side
    const trimmed = feedLive(padded, { trimEdges: true });
    const spans = detectSpeech(padded);
    const first = spans[0]?.start ?? -1;
    const last = spans.at(-1)?.end ?? -1;
    expect(trimmed.keptStart).toBe(first - 480);
    // The last words close a chunk at the pause after them (150 ms on) or at the end (30 ms on).
    expect([last + 480, last + 2400]).toContain(trimmed.keptEnd);
    expect(trimmed.chunks[0]?.start).toBe(trimmed.keptStart);
    expect(trimmed.chunks.at(-1)?.end).toBe(trimmed.keptEnd);
    const inner = feedLive(padded, { trimEdges: false });
    expect(bounds(trimmed.chunks).slice(0, -1).map(([, e]) => e)).toEqual(bounds(inner.chunks).slice(0, -1).map(([, e]) => e));
  });

  it('merges sentences until a chunk holds minChunkSeconds', () => {
    const few = feedLive(clip, { trimEdges: false, minChunkSeconds: 5 });
    expect(few.chunks.length).toBeLessThan(5);
    expect(few.chunks.length).toBeGreaterThanOrEqual(2);
    for (const c of few.chunks.slice(0, -1)) expect(c.end - c.start).toBeGreaterThanOrEqual(5 * RATE);
  });

  it('silence: no chunk with the edges trimmed; one chunk of it with vad off (decoded as today)', () => {
    const quiet = new Float32Array(3 * RATE);
    const trimmed = feedLive(quiet, { trimEdges: true });
    expect(trimmed).toMatchObject({ chunks: [], speech: false, keptStart: 0, keptEnd: 0 });
    const kept = feedLive(quiet, { trimEdges: false });
    expect(bounds(kept.chunks)).toEqual([[0, 3 * RATE]]);
    expect(kept.speech).toBe(false);
  });

  it('a detector handed back (reset) and reused cuts exactly as a fresh one, also after being released mid-recording', () => {
    const fresh = detectSpeech(clip);
    expect(fresh.length).toBeGreaterThanOrEqual(5);
    // Half a recording, then released (a cancelled dictation): the next one reuses that native detector.
    const cancelled = openSpeechDetector();
    cancelled.accept(clip.subarray(0, Math.round(clip.length / 2)));
    cancelled.release();
    expect(() => cancelled.accept(clip)).toThrow(/released/);
    expect(detectSpeech(clip)).toEqual(fresh);
    expect(detectSpeech(clip)).toEqual(fresh);
    expect(bounds(feedLive(clip, { trimEdges: false }).chunks)).toEqual(bounds(chunkSpeech(clip, { trimEdges: false }).chunks));
  });

  it('reusing a handed-back detector is fast: no model load at key-down', () => {
    openSpeechDetector().release();
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) openSpeechDetector().release();
    // Opening one loads the model (~45 ms here); a reset is well under a millisecond.
    expect((performance.now() - t0) / 5).toBeLessThan(10);
  });

  it('refuses audio after the end', () => {
    const c = new SpeechChunker({ trimEdges: false });
    c.end();
    expect(() => c.push(new Float32Array(10))).toThrow(/ended/);
  });
});
