/**
 * Microphone capture for the hidden capture window: getUserMedia + an AudioWorklet at 16 kHz mono
 * (Chromium resamples the device), kept warm between dictations with a ring of recent batches as the
 * pre-roll, so the first word is not clipped. Frames go to main as base64 Float32 over the bridge.
 * The same module runs in the app and in the browser tests (with a fake microphone).
 */
import workletUrl from './capture-worklet.ts?worker&url';

/** Where batches go (the bridge in the app). */
export interface CaptureSink {
  frames(batch: { sessionId: string; seq: number; sampleRate: number; pcm: string }): Promise<unknown>;
  status(status: { state: 'ready'; sampleRate: number; deviceLabel: string } | { state: 'stopped'; sessionId: string; frames: number } | { state: 'error'; message: string }): Promise<unknown>;
}

/** Target rate of the capture context. */
export const CAPTURE_RATE = 16_000;

/** base64 of little-endian Float32 samples (every platform Tingxie runs on is little-endian). */
export function encodeBatch(samples: Float32Array): string {
  const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A warm recorder. */
export class Recorder {
  private readonly sink: CaptureSink;
  private ctx: AudioContext | null = null;
  private stream: MediaStream | null = null;
  private node: AudioWorkletNode | null = null;
  private ring: Float32Array[] = [];
  private preRollMs = 300;
  private session: { id: string; seq: number; sending: Promise<unknown> } | null = null;
  private flushed: (() => void) | null = null;
  private device: string | null = null;

  constructor(sink: CaptureSink) {
    this.sink = sink;
  }

  /** Opens (or re-opens, when the device changed) the microphone and starts the worklet. */
  async configure(deviceId: string | null, preRollMs: number): Promise<void> {
    this.preRollMs = preRollMs;
    if (this.ctx !== null && deviceId === this.device) return;
    await this.release();
    this.device = deviceId;
    try {
      const audio: MediaTrackConstraints = { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false };
      if (deviceId !== null) audio.deviceId = { exact: deviceId };
      this.stream = await navigator.mediaDevices.getUserMedia({ audio });
      this.ctx = new AudioContext({ sampleRate: CAPTURE_RATE });
      await this.ctx.audioWorklet.addModule(workletUrl);
      const source = this.ctx.createMediaStreamSource(this.stream);
      this.node = new AudioWorkletNode(this.ctx, 'tingxie-capture', { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1, channelCountMode: 'explicit' });
      this.node.port.onmessage = (e: MessageEvent<Float32Array | string>) => this.onBatch(e.data);
      source.connect(this.node);
      if (this.ctx.state !== 'running') await this.ctx.resume();
      const label = this.stream.getAudioTracks()[0]?.label ?? '';
      await this.sink.status({ state: 'ready', sampleRate: this.ctx.sampleRate, deviceLabel: label.slice(0, 500) });
    } catch (err) {
      await this.release();
      await this.sink.status({ state: 'error', message: `Microphone unavailable: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`.slice(0, 2000) });
    }
  }

  /** Streams the pre-roll (at most `preRollMs` of it when given), then live batches, tagged with `sessionId`. */
  start(sessionId: string, preRollMs?: number): void {
    this.session = { id: sessionId, seq: 0, sending: Promise.resolve() };
    const preRoll = this.ring;
    this.ring = [];
    if (preRollMs !== undefined) {
      // Keep only the newest batches: e.g. nothing from before a start sound ended.
      const max = ((this.ctx?.sampleRate ?? CAPTURE_RATE) * preRollMs) / 1000;
      let kept = preRoll.reduce((n, b) => n + b.length, 0);
      while (preRoll.length > 0 && kept > max) kept -= preRoll.shift()?.length ?? 0;
    }
    for (const b of preRoll) this.send(b);
  }

  /** Flushes the worklet's partial batch, then reports how many batches the session had. */
  async stop(sessionId: string): Promise<void> {
    const s = this.session;
    if (s === null || s.id !== sessionId) {
      await this.sink.status({ state: 'stopped', sessionId, frames: 0 });
      return;
    }
    if (this.node !== null) {
      const done = new Promise<void>((resolve) => (this.flushed = resolve));
      this.node.port.postMessage('flush');
      await Promise.race([done, new Promise((r) => setTimeout(r, 300))]);
    }
    // A start for the next dictation may have come in during the flush wait (cancel, then a quick new
    // press): that session is not this one's to end.
    if (this.session === s) this.session = null;
    await s.sending;
    await this.sink.status({ state: 'stopped', sessionId, frames: s.seq });
  }

  /** Closes the microphone. */
  async release(): Promise<void> {
    this.node?.disconnect();
    for (const t of this.stream?.getTracks() ?? []) t.stop();
    await this.ctx?.close().catch(() => undefined);
    this.node = null;
    this.stream = null;
    this.ctx = null;
    this.ring = [];
  }

  private onBatch(data: Float32Array | string): void {
    if (data === 'flushed') {
      this.flushed?.();
      this.flushed = null;
      return;
    }
    if (typeof data === 'string') return;
    if (this.session !== null) {
      this.send(data);
      return;
    }
    // Not recording: keep the last `preRollMs` as the pre-roll.
    this.ring.push(data);
    let kept = this.ring.reduce((n, b) => n + b.length, 0);
    const max = ((this.ctx?.sampleRate ?? CAPTURE_RATE) * this.preRollMs) / 1000;
    while (this.ring.length > 0 && kept - (this.ring[0]?.length ?? 0) >= max) kept -= this.ring.shift()?.length ?? 0;
    if (this.preRollMs === 0) this.ring = [];
  }

  private send(batch: Float32Array): void {
    const s = this.session;
    if (s === null) return;
    const seq = s.seq++;
    const payload = { sessionId: s.id, seq, sampleRate: this.ctx?.sampleRate ?? CAPTURE_RATE, pcm: encodeBatch(batch) };
    // Sent in order: each batch waits for the previous call so main's sequence check holds.
    s.sending = s.sending.then(() => this.sink.frames(payload)).catch(() => undefined);
  }
}
