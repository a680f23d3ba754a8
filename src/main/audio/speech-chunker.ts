import { SAMPLE_RATE } from './pcm.ts';
import { openSpeechDetector, VAD_MIN_SILENCE_SECONDS, type SpeechDetector, type SpeechSpan, type VadOptions } from './vad.ts';

/*
 * Cuts a recording into chunks at the speaker's pauses, as it is recorded, so each chunk can be decoded
 * while the key is still held (asr/live-transcriber.ts). The chunks are contiguous: every sample
 * between the first chunk's start and the last chunk's end belongs to exactly one chunk, pauses
 * included, so nothing said is dropped between chunks even where the VAD misjudged soft speech. Only
 * the edges are trimmed, and only when audio.vad_enabled asks for it (as prepareForAsr does).
 *
 * The cuts depend only on the samples, never on how they were batched: feeding a whole clip at once
 * gives the same chunks as feeding it 100 ms at a time while recording. That is what makes text decoded
 * while speaking equal to text decoded from the journaled clip after a crash or on a retry.
 */

/** A chunk of the recording, in samples of the input: [start, end). */
export interface SpeechChunk {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly samples: Float32Array;
  /** Speech spans inside the chunk (absolute positions). */
  readonly spans: readonly SpeechSpan[];
}

/** Options of the chunker. */
export interface ChunkerOptions {
  /** Trim silence before the first and after the last speech (audio.vad_enabled). */
  readonly trimEdges: boolean;
  /** Margin kept around the trimmed edges (ms), as prepareForAsr keeps. */
  readonly padMs?: number;
  /**
   * A chunk is closed at a pause only once it holds this much audio: whisper and sherpa do better with
   * a sentence than with a word, and each call has a fixed cost.
   */
  readonly minChunkSeconds?: number;
  readonly vad?: VadOptions;
}

/** Where the chunker cuts after a span: half the shortest pause, so the cut always falls in silence. */
const CUT_AFTER_SPAN = Math.round((VAD_MIN_SILENCE_SECONDS / 2) * SAMPLE_RATE);
/** A tail after the last cut with no speech in it is decoded only when it is longer than this (VAD missed soft speech). */
const SILENT_TAIL_KEPT = Math.round(1.5 * SAMPLE_RATE);

/** The end of a recording, as the chunker saw it. */
export interface ChunkerEnd {
  /** The chunks that closed at the end (0, 1 or 2). */
  readonly chunks: readonly SpeechChunk[];
  /** Any speech detected in the whole recording. */
  readonly speech: boolean;
  /** The range of the input that the chunks cover (what is journaled and decoded). */
  readonly keptStart: number;
  readonly keptEnd: number;
}

/** Cuts 16 kHz mono PCM into contiguous chunks at pauses. */
export class SpeechChunker {
  private readonly detector: SpeechDetector;
  private readonly opts: ChunkerOptions;
  private readonly pad: number;
  private readonly minChunk: number;
  private readonly parts: Float32Array[] = [];
  private total = 0;
  /** Start of the open chunk; null while edges are trimmed and no speech has been heard. */
  private chunkStart: number | null;
  private firstStart: number | null = null;
  private openSpans: SpeechSpan[] = [];
  private lastSpeechEnd = 0;
  private nextIndex = 0;
  private ended = false;
  /** The range the chunks so far cover. */
  private covered: { start: number; end: number } | null = null;

  constructor(opts: ChunkerOptions) {
    this.opts = opts;
    this.pad = Math.round(((opts.padMs ?? 30) / 1000) * SAMPLE_RATE);
    this.minChunk = Math.round((opts.minChunkSeconds ?? 2) * SAMPLE_RATE);
    this.chunkStart = opts.trimEdges ? null : 0;
    this.detector = openSpeechDetector(opts.vad);
  }

  /** Samples received so far. */
  get length(): number {
    return this.total;
  }

  /** Adds samples; returns the chunks that closed at a pause. */
  push(samples: Float32Array): SpeechChunk[] {
    if (this.ended) throw new Error('the recording has ended');
    if (samples.length === 0) return [];
    this.parts.push(samples.slice());
    this.total += samples.length;
    return this.onSpans(this.detector.accept(samples), false);
  }

  /** The recording ended: closes the last chunk. */
  end(): ChunkerEnd {
    if (this.ended) throw new Error('the recording has ended');
    const closed = this.onSpans(this.detector.flush(), true);
    this.close();
    const keptEnd = this.opts.trimEdges ? Math.min(this.total, this.lastSpeechEnd + this.pad) : this.total;
    const start = this.chunkStart;
    if (start !== null && keptEnd > start) {
      const tailHasSpeech = this.openSpans.length > 0;
      if (tailHasSpeech || keptEnd - start > SILENT_TAIL_KEPT || this.nextIndex === 0) closed.push(this.chunk(start, keptEnd));
    }
    return { chunks: closed, speech: this.firstStart !== null, keptStart: this.covered?.start ?? 0, keptEnd: this.covered?.end ?? 0 };
  }

  /** Stops taking audio and hands the detector back for the next recording (end() does this too). */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.detector.release();
  }

  /** Samples [start, end) of the input received so far. */
  private range(start: number, end: number): Float32Array {
    const out = new Float32Array(Math.max(0, end - start));
    let at = 0;
    for (const p of this.parts) {
      const lo = Math.max(start, at);
      const hi = Math.min(end, at + p.length);
      if (hi > lo) out.set(p.subarray(lo - at, hi - at), lo - start);
      at += p.length;
      if (at >= end) break;
    }
    return out;
  }

  private onSpans(spans: readonly SpeechSpan[], atEnd: boolean): SpeechChunk[] {
    const closed: SpeechChunk[] = [];
    for (const span of spans) {
      if (this.firstStart === null) {
        this.firstStart = span.start;
        if (this.chunkStart === null) this.chunkStart = Math.max(0, span.start - this.pad);
      }
      this.openSpans.push(span);
      this.lastSpeechEnd = span.end;
      const start = this.chunkStart ?? 0;
      // At the end the last chunk takes everything left (end() closes it with the trimmed edge).
      if (atEnd || span.end - start < this.minChunk) continue;
      // A span cut off by the VAD's longest-speech limit has no pause after it: cut right at its end.
      const forced = span.end - span.start >= 29 * SAMPLE_RATE;
      const cut = Math.min(this.total, forced ? span.end : span.end + CUT_AFTER_SPAN);
      closed.push(this.chunk(start, cut));
      this.chunkStart = cut;
    }
    return closed;
  }

  private chunk(start: number, end: number): SpeechChunk {
    const spans = this.openSpans.filter((s) => s.end > start && s.start < end);
    this.openSpans = this.openSpans.filter((s) => s.end > end);
    this.covered = { start: this.covered?.start ?? start, end };
    return { index: this.nextIndex++, start, end, samples: this.range(start, end), spans };
  }
}
