import { SAMPLE_RATE } from '../audio/pcm.ts';
import { SpeechChunker, type ChunkerEnd, type ChunkerOptions, type SpeechChunk } from '../audio/speech-chunker.ts';
import { joinChunkTexts } from './join-chunks.ts';
import { AsrError, type AsrEngine, type AsrResult, type AsrSegment, type TranscribeOptions } from './types.ts';

/*
 * Transcribe while speaking (asr.local.decode_while_speaking): the recording is cut at the speaker's
 * pauses (audio/speech-chunker.ts) and each chunk is decoded on the warm local engine as soon as it
 * closes, one at a time, while the key is still held. At key-up only the last chunk is left, so the
 * wait no longer grows with the length of the dictation. The same class decodes a whole clip at once
 * (a retry from the journal), through the same cuts, so both ways give the same text.
 */

/** What a live transcription is built from. */
export interface LiveTranscriptionOptions {
  readonly engine: AsrEngine;
  /** Language, prompt and temperature of every chunk's call. */
  readonly call: TranscribeOptions;
  readonly chunker: ChunkerOptions;
  /** The text so far, every time a chunk is decoded (the indicator's live text). */
  readonly onText?: (text: string) => void;
}

/** One decoded chunk. */
export interface DecodedChunk {
  readonly index: number;
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
  /** Decoded before the recording ended. */
  readonly live: boolean;
}

/** The result: an AsrResult whose segments are the engine's, shifted to the clip, plus the chunks. */
export interface LiveResult extends AsrResult {
  readonly chunks: readonly DecodedChunk[];
  /** Chunks still waiting or being decoded when the recording ended (what key-up waited for). */
  readonly pendingAtEnd: number;
}

interface Slot {
  readonly chunk: SpeechChunk;
  readonly live: boolean;
  result: AsrResult | null;
  error: AsrError | null;
}

const toMs = (samples: number): number => Math.round((samples / SAMPLE_RATE) * 1000);

function asAsrError(err: unknown): AsrError {
  return err instanceof AsrError ? err : new AsrError('engine-failed', String((err as Error)?.message ?? err), { cause: err });
}

/** A recording being decoded chunk by chunk. */
export class LiveTranscription {
  private readonly opts: LiveTranscriptionOptions;
  private readonly chunker: SpeechChunker;
  private readonly slots: Slot[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();
  private ending: ChunkerEnd | null = null;
  private pendingAtEnd = 0;
  private readonly t0 = performance.now();

  constructor(opts: LiveTranscriptionOptions) {
    this.opts = opts;
    this.chunker = new SpeechChunker(opts.chunker);
  }

  /** Adds recorded 16 kHz samples; chunks that close are queued for decoding at once. */
  push(samples: Float32Array): void {
    if (this.ending !== null || this.abort.signal.aborted) return;
    for (const chunk of this.chunker.push(samples)) this.enqueue(chunk, true);
  }

  /**
   * The recording ended: the last chunk is queued. Returns what the chunks cover (the audio to journal)
   * and whether any speech was heard; `result()` then waits for the text.
   */
  end(): ChunkerEnd {
    if (this.ending !== null) return this.ending;
    // Cancelled: the detector is already handed back and nothing more will be decoded.
    const ending = this.abort.signal.aborted ? { chunks: [], speech: false, keptStart: 0, keptEnd: 0 } : this.chunker.end();
    this.ending = ending;
    this.pendingAtEnd = this.slots.filter((s) => s.result === null && s.error === null).length + ending.chunks.length;
    for (const chunk of ending.chunks) this.enqueue(chunk, false);
    return ending;
  }

  /** Waits for every chunk; a chunk that failed is decoded once more before the dictation fails. */
  async result(signal?: AbortSignal): Promise<LiveResult> {
    this.end();
    const onAbort = (): void => this.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.queue;
      for (const slot of this.slots) {
        if (slot.error === null || !slot.error.retryable) continue;
        slot.error = null;
        await this.decode(slot);
      }
      if (this.abort.signal.aborted) throw new AsrError('cancelled', 'transcription cancelled');
      const failed = this.slots.find((s) => s.error !== null);
      if (failed?.error) throw failed.error;
      return this.assemble();
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Stops decoding (cancel, restart): queued chunks are skipped, a running one is discarded. */
  cancel(): void {
    this.abort.abort();
    this.chunker.close();
  }

  private enqueue(chunk: SpeechChunk, live: boolean): void {
    const slot: Slot = { chunk, live, result: null, error: null };
    this.slots.push(slot);
    this.queue = this.queue.then(() => this.decode(slot));
  }

  private async decode(slot: Slot): Promise<void> {
    if (this.abort.signal.aborted) return;
    try {
      slot.result = await this.opts.engine.transcribe(slot.chunk.samples, { ...this.opts.call, signal: this.abort.signal });
    } catch (err) {
      slot.error = asAsrError(err);
      return;
    }
    if (!this.abort.signal.aborted) this.opts.onText?.(this.textSoFar());
  }

  private textSoFar(): string {
    return joinChunkTexts(this.slots.map((s) => s.result?.text ?? ''));
  }

  private assemble(): LiveResult {
    const segments: AsrSegment[] = [];
    const dropped: AsrSegment[] = [];
    const chunks: DecodedChunk[] = [];
    let language: string | undefined;
    let transcribeMs = 0;
    let loadMs = 0;
    for (const { chunk, live, result } of this.slots) {
      if (result === null) continue;
      const offset = toMs(chunk.start);
      const shift = (s: AsrSegment): AsrSegment => ({ ...s, startMs: s.startMs + offset, endMs: s.endMs + offset });
      segments.push(...result.segments.map(shift));
      dropped.push(...(result.droppedSegments ?? []).map(shift));
      chunks.push({ index: chunk.index, startMs: offset, endMs: toMs(chunk.end), text: result.text.trim(), live });
      language ??= result.language;
      transcribeMs += result.timings.transcribeMs;
      loadMs += result.timings.loadMs;
    }
    return {
      text: joinChunkTexts(chunks.map((c) => c.text)),
      segments,
      language: language ?? (this.opts.call.language !== 'auto' ? this.opts.call.language : undefined),
      timings: { loadMs, transcribeMs, totalMs: performance.now() - this.t0 },
      engine: this.opts.engine.kind,
      chunks,
      pendingAtEnd: this.pendingAtEnd,
      ...(dropped.length > 0 ? { droppedSegments: dropped } : {}),
    };
  }
}

/** Decodes a whole clip through the same cuts as a live recording of it (a retry, a journaled session). */
export function transcribeInChunks(engine: AsrEngine, pcm: Float32Array, call: TranscribeOptions, chunker: ChunkerOptions): Promise<LiveResult> {
  const live = new LiveTranscription({ engine, call, chunker });
  live.push(pcm);
  return live.result(call.signal);
}

/**
 * `engine` decoding every clip through the chunks a live recording of it gets (so a retry from the
 * journal gives the text the live decode gave). Where the VAD cannot run, the whole clip in one call.
 */
export function chunkedEngine(engine: AsrEngine, chunker: ChunkerOptions): AsrEngine {
  return {
    kind: engine.kind,
    transcribe: (pcm, call = {}) => {
      let chunked: Promise<LiveResult>;
      try {
        // Throws here, before any decoding, only when the VAD cannot be opened.
        chunked = transcribeInChunks(engine, pcm, call, chunker);
      } catch {
        return engine.transcribe(pcm, call);
      }
      return chunked;
    },
    // The service owns the engine and frees it; this view has nothing of its own.
    dispose: () => Promise.resolve(),
  };
}
