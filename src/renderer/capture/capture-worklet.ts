/**
 * The AudioWorklet of the capture window: copies the first input channel (downmixed by the node's
 * channelCount 1) into ~100 ms batches and posts them to the main thread. `flush` posts the partial
 * batch followed by a `flushed` marker, so a stop never cuts the tail.
 */

// Minimal AudioWorklet globals (the DOM lib does not type the worklet scope).
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, ctor: new () => AudioWorkletProcessor): void;

class CaptureProcessor extends AudioWorkletProcessor {
  private batch: Float32Array;
  private used = 0;

  constructor() {
    super();
    this.batch = new Float32Array(Math.round(sampleRate / 10));
    this.port.onmessage = (e: MessageEvent<unknown>) => {
      if (e.data === 'flush') {
        this.post();
        this.port.postMessage('flushed');
      }
    };
  }

  private post(): void {
    if (this.used === 0) return;
    const out = this.batch.slice(0, this.used);
    this.port.postMessage(out, [out.buffer]);
    this.used = 0;
  }

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (channel) {
      let at = 0;
      while (at < channel.length) {
        const n = Math.min(channel.length - at, this.batch.length - this.used);
        this.batch.set(channel.subarray(at, at + n), this.used);
        this.used += n;
        at += n;
        if (this.used === this.batch.length) this.post();
      }
    }
    return true;
  }
}

registerProcessor('tingxie-capture', CaptureProcessor);
