/**
 * The recording under way, as the controller holds it: its capture buffer (session-buffer.ts, which
 * appends every batch to the raw frames file) and its live transcription (asr.local.decode_while_speaking),
 * started with the capture, fed every kept batch, and handed together to the key-up step (or dropped
 * with the recording). Anything going wrong with the live transcription only costs the head start: the
 * recording is then decoded whole at key-up, as before.
 */
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { errorText } from './controller-context.ts';
import type { DictationPorts, LiveTranscription } from '../ports/dictation-ports.ts';
import { SessionBuffer } from './session-buffer.ts';

/** What the key-up (or cancel) step takes over from the recording of one session. */
export interface TakenRecording {
  /** The capture buffer (null when it is not the current session's, or was taken already). */
  readonly buffer: SessionBuffer | null;
  /** The live transcription (null when the session has none). */
  readonly live: LiveTranscription | null;
}

/** The capture buffer and live transcription of at most one recording. */
export class CurrentRecording {
  private buffer: SessionBuffer | null = null;
  private live: { readonly id: string; readonly transcription: LiveTranscription } | null = null;
  private readonly ports: Pick<DictationPorts, 'asr' | 'log'>;

  constructor(ports: Pick<DictationPorts, 'asr' | 'log'>) {
    this.ports = ports;
  }

  /** Opens session `id`'s capture buffer, its batches appended to its raw frames file in `sessionsDir`. */
  open(id: string, maxSeconds: number, sessionsDir: string): void {
    this.buffer = new SessionBuffer(id, { maxSeconds, sessionsDir, onAudio: (kept, rate) => this.feed(id, kept, rate) });
    if (this.buffer.fileError !== null) this.ports.log?.('warn', 'raw recording file not written; recording in memory only', { error: this.buffer.fileError });
  }

  /** Starts the live transcription of session `id` (when its engine does that); `onText`: the text so far. */
  startLiveTranscription(id: string, onText: (text: string) => void): void {
    this.live?.transcription.cancel();
    this.live = null;
    try {
      const transcription = this.ports.asr.startLiveTranscription?.(id, onText);
      if (transcription) this.live = { id, transcription };
    } catch (err) {
      this.ports.log?.('warn', 'not decoding while speaking; the recording is decoded at key-up', { error: errorText(err) });
    }
  }

  /** A batch of session `id`'s PCM: its level (null when not metered, or not this recording's batch). */
  push(id: string, seq: number, sampleRate: number, pcm: Float32Array): number | null {
    const b = this.buffer;
    return b === null || b.id !== id ? null : b.push(seq, sampleRate, pcm);
  }

  /** Batches received for session `id`; infinite once nothing is buffered for it. */
  batches(id: string): number {
    const b = this.buffer;
    return b !== null && b.id === id ? b.batches : Number.POSITIVE_INFINITY;
  }

  /** Hands over session `id`'s buffer and live transcription (each null when it has none). */
  take(id: string): TakenRecording {
    return { buffer: this.takeBuffer(id), live: this.takeLiveTranscription(id) };
  }

  private takeBuffer(id: string): SessionBuffer | null {
    const b = this.buffer;
    if (b === null || b.id !== id) return null;
    this.buffer = null;
    return b;
  }

  private takeLiveTranscription(id: string): LiveTranscription | null {
    const l = this.live;
    if (l === null || l.id !== id) return null;
    this.live = null;
    return l.transcription;
  }

  /** A kept batch of session `id` (16 kHz only: another rate is decoded at key-up). */
  private feed(id: string, kept: Float32Array, rate: number): void {
    const l = this.live;
    if (l === null || l.id !== id) return;
    if (rate !== SAMPLE_RATE) {
      this.ports.log?.('warn', 'capture rate is not 16 kHz; the recording is decoded at key-up', { rate });
      this.takeLiveTranscription(id)?.cancel();
      return;
    }
    try {
      l.transcription.push(kept);
    } catch (err) {
      this.ports.log?.('warn', 'decoding while speaking stopped; the recording is decoded at key-up', { error: errorText(err) });
      this.takeLiveTranscription(id)?.cancel();
    }
  }
}
