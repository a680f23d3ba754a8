/**
 * Start/stop sounds that never end up in the recording: a CapturePort decorator. With sounds on, the
 * start sound plays first and the capture window starts streaming only once it has finished (plus a
 * margin for output latency), with no pre-roll — the pre-roll would hold the sound. The stop sound
 * plays after the capture window has stopped. With sounds off it passes straight through (pre-roll kept).
 * The controller's own `sound` effects are therefore not played by the app (its UiPort ignores them).
 */
import type { CapturePort } from '../ports/dictation-ports.ts';

/** The capture window's port, with the per-session pre-roll override. */
export interface StartableCapture {
  start(id: string, preRollMs?: number): void;
  stop(id: string): Promise<void>;
}

/** Options of {@link SoundingCapture}. */
export interface SoundingCaptureOptions {
  readonly inner: StartableCapture;
  /** Whether sounds are on (read at each session start: config `feedback.sound_enabled`). */
  readonly enabled: () => boolean;
  readonly play: (which: 'start' | 'stop') => void;
  /** Length of the start sound in ms. */
  readonly startSoundMs: number;
  /** Extra wait for audio output latency after the sound ends. */
  readonly marginMs?: number;
  readonly setTimeout?: (fn: () => void, ms: number) => unknown;
  readonly clearTimeout?: (handle: unknown) => void;
}

/** A CapturePort that plays the sounds around the real capture. */
export class SoundingCapture implements CapturePort {
  private readonly o: SoundingCaptureOptions;
  private readonly pending = new Map<string, unknown>();
  private readonly sounded = new Set<string>();

  constructor(opts: SoundingCaptureOptions) {
    this.o = opts;
  }

  start(id: string): void {
    if (!this.o.enabled()) {
      this.o.inner.start(id);
      return;
    }
    this.sounded.add(id);
    this.o.play('start');
    const set = this.o.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    const handle = set(() => {
      this.pending.delete(id);
      this.o.inner.start(id, 0);
    }, this.o.startSoundMs + (this.o.marginMs ?? 100));
    this.pending.set(id, handle);
  }

  async stop(id: string): Promise<void> {
    const handle = this.pending.get(id);
    if (handle !== undefined) {
      // Released before the start sound finished: nothing was streaming yet.
      (this.o.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>)))(handle);
      this.pending.delete(id);
    }
    try {
      await this.o.inner.stop(id);
    } finally {
      if (this.sounded.delete(id)) this.o.play('stop');
    }
  }
}
