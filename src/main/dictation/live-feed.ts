/**
 * The current recording's transcription-while-speaking (asr.local.decode_while_speaking), as the
 * controller holds it: started with the capture, fed every kept batch, handed to the key-up step (or
 * cancelled with the recording). Anything going wrong here only costs the head start: the recording
 * is then decoded whole at key-up, as before.
 */
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { errorText } from './controller-context.ts';
import type { DictationPorts, LiveAsr } from './ports.ts';

/** The live transcription of at most one recording. */
export class LiveFeed {
  private live: { readonly id: string; readonly asr: LiveAsr } | null = null;
  private readonly ports: Pick<DictationPorts, 'asr' | 'log'>;

  constructor(ports: Pick<DictationPorts, 'asr' | 'log'>) {
    this.ports = ports;
  }

  /** Starts decoding session `id` as it is recorded (when its engine does that); `onText`: the text so far. */
  start(id: string, onText: (text: string) => void): void {
    this.live?.asr.cancel();
    this.live = null;
    try {
      const asr = this.ports.asr.startLive?.(id, onText);
      if (asr) this.live = { id, asr };
    } catch (err) {
      this.ports.log?.('warn', 'not decoding while speaking; the recording is decoded at key-up', { error: errorText(err) });
    }
  }

  /** A kept batch of session `id` (16 kHz only: another rate is decoded at key-up). */
  feed(id: string, kept: Float32Array, rate: number): void {
    const l = this.live;
    if (l === null || l.id !== id) return;
    if (rate !== SAMPLE_RATE) {
      this.ports.log?.('warn', 'capture rate is not 16 kHz; the recording is decoded at key-up', { rate });
      this.take(id)?.cancel();
      return;
    }
    try {
      l.asr.push(kept);
    } catch (err) {
      this.ports.log?.('warn', 'decoding while speaking stopped; the recording is decoded at key-up', { error: errorText(err) });
      this.take(id)?.cancel();
    }
  }

  /** Hands over session `id`'s live transcription (null when it has none). */
  take(id: string): LiveAsr | null {
    const l = this.live;
    if (l === null || l.id !== id) return null;
    this.live = null;
    return l.asr;
  }
}
