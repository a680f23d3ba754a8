/**
 * Main's side of capture: the PCM of the current session as it arrives from the capture window,
 * in order (duplicate or stale batches are dropped), capped at the max length, with a level for the
 * meter. Every batch is also appended to `<dataDir>/sessions/<id>.f32` so a crash while the key is
 * still held leaves the audio on disk (the journal step replaces it with a WAV at key-up).
 */
import fs from 'node:fs';
import path from 'node:path';
import { meterLevel } from '../audio/levels.ts';
import { writeFullySync } from '../platform/write-fully.ts';

/** Decodes a base64 little-endian Float32 batch (the wire format of `capture:frames`). */
export function decodeFrames(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** Encodes Float32 samples as base64 little-endian (tests and tools; the renderer has its own). */
export function encodeFrames(samples: Float32Array): string {
  const buf = Buffer.alloc(samples.length * 4);
  for (let i = 0; i < samples.length; i++) buf.writeFloatLE(samples[i] ?? 0, i * 4);
  return buf.toString('base64');
}

/** Raw-audio file of a session being recorded. */
export function recordingFile(sessionsDir: string, id: string): string {
  return path.join(sessionsDir, `${id}.f32`);
}

/** The recording of one session. */
export class SessionBuffer {
  readonly id: string;
  private readonly chunks: Float32Array[] = [];
  private samples = 0;
  private nextSeq = 0;
  private rate = 0;
  private readonly maxSeconds: number;
  private file: string | null;
  /** Set when the recording hit the max length (later frames are dropped). */
  capped = false;
  /** Why the crash-safety file could not be written (the recording then lives in memory only). */
  fileError: string | null = null;

  /** Called with every kept batch, in order (the live transcription's feed). */
  private readonly onAudio: ((kept: Float32Array, sampleRate: number) => void) | undefined;

  constructor(id: string, opts: { readonly maxSeconds: number; readonly sessionsDir: string | null; readonly onAudio?: (kept: Float32Array, sampleRate: number) => void }) {
    this.id = id;
    this.maxSeconds = opts.maxSeconds;
    this.onAudio = opts.onAudio;
    this.file = opts.sessionsDir === null ? null : recordingFile(opts.sessionsDir, id);
    this.toFile(() => {
      if (opts.sessionsDir !== null) fs.mkdirSync(opts.sessionsDir, { recursive: true });
      if (this.file) fs.writeFileSync(this.file, Buffer.alloc(4)); // header: the sample rate, once known
    });
  }

  /** Runs a write of the crash-safety file; the first failure turns the file off for this recording. */
  private toFile(write: () => void): void {
    if (this.file === null) return;
    try {
      write();
    } catch (err) {
      this.fileError = String((err as Error)?.message ?? err);
      const file = this.file;
      this.file = null;
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // A read-only folder: nothing was written there anyway.
      }
    }
  }

  /** Adds one batch; returns the meter level (0..1) or null when the batch was dropped. */
  push(seq: number, sampleRate: number, frames: Float32Array): number | null {
    if (seq !== this.nextSeq) return null; // duplicate or out of order: IPC is ordered, so this is a stale sender
    this.nextSeq++;
    if (this.rate === 0) {
      this.rate = sampleRate;
      const file = this.file;
      this.toFile(() => {
        if (file === null) return;
        const header = Buffer.alloc(4);
        header.writeUInt32LE(sampleRate, 0);
        const fd = fs.openSync(file, 'r+');
        try {
          writeFullySync(fd, header, 0);
        } finally {
          fs.closeSync(fd);
        }
      });
    } else if (sampleRate !== this.rate) {
      return null; // a device switch mid-session would corrupt the audio: keep what we have
    }
    const room = Math.floor(this.maxSeconds * this.rate) - this.samples;
    if (room <= 0) {
      this.capped = true;
      return null;
    }
    const kept = frames.length > room ? frames.subarray(0, room) : frames;
    this.chunks.push(kept);
    this.samples += kept.length;
    const file = this.file;
    // appendFileSync writes the whole batch (it loops over short writes, unlike a bare writeSync; see
    // write-fully.ts); if the disk fills midway it throws and the file is dropped (toFile).
    if (file !== null) this.toFile(() => fs.appendFileSync(file, Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength)));
    this.onAudio?.(kept, this.rate);
    return meterLevel(kept);
  }

  /** Samples received so far. */
  get length(): number {
    return this.samples;
  }

  /** Sample rate of the batches (0 before the first). */
  get sampleRate(): number {
    return this.rate;
  }

  /** Batches received (what the capture window's `stopped` report is compared with). */
  get batches(): number {
    return this.nextSeq;
  }

  /** The whole recording. */
  pcm(): Float32Array {
    const out = new Float32Array(this.samples);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  /** Deletes the crash-safety file (the audio is journaled as a WAV now, or discarded). */
  dropFile(): void {
    const file = this.file;
    if (file !== null) this.toFile(() => fs.rmSync(file, { force: true }));
  }
}

/** Reads a crash-left raw recording: its sample rate and samples (null when absent or empty). */
export function readRecordingFile(file: string): { readonly sampleRate: number; readonly pcm: Float32Array } | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return null;
  }
  if (bytes.length < 8) return null;
  const sampleRate = bytes.readUInt32LE(0);
  const n = Math.floor((bytes.length - 4) / 4);
  const pcm = new Float32Array(n);
  for (let i = 0; i < n; i++) pcm[i] = bytes.readFloatLE(4 + i * 4);
  return sampleRate > 0 ? { sampleRate, pcm } : null;
}
