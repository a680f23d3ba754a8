import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaptureLink } from '../../../../src/main/dictation/capture-link.ts';
import { DictationController } from '../../../../src/main/dictation/controller.ts';
import { configSchema, type Config } from '../../../../src/shared/config/config-schema.ts';
import type { CaptureCommand, CaptureStatus } from '../../../../src/shared/ipc/dictation-types.ts';

/**
 * Key-up → stop with the real controller and the real CaptureLink, wired as src/main/app/dictation-app.ts
 * wires them (frames → controller.frames + link.check, status → link.report). The capture "window" is
 * scripted as the real one behaves (src/renderer/capture/capture.ts): on `stop` it flushes its last
 * batches asynchronously, then reports how many batches the session had. Real timers throughout: the
 * point is how long key-up → ASR takes against the stop grace.
 */

const RATE = 16_000;
const BATCH = RATE / 10; // the worklet's 100 ms batches
const GRACE_MS = 1500;

/** A tick of the event loop, as an IPC hop would be. */
const hop = (): Promise<void> => new Promise((r) => setImmediate(r));

/** 100 ms of a tone (well above the silence threshold); `marker` tags the batch's first sample. */
function batch(marker: number): Float32Array {
  const out = new Float32Array(BATCH).map((_, i) => 0.2 * Math.sin(i / 5));
  out[0] = marker;
  return out;
}

/** The capture window as a script: batches fed by the test while "recording", `tail` more flushed on stop. */
class ScriptedCaptureWindow {
  private session: { id: string; seq: number } | null = null;
  /** `stopped` reports sent so far. */
  stopped = 0;

  private readonly main: { frames(id: string, seq: number, rate: number, pcm: Float32Array): void; report(s: CaptureStatus): void };
  private readonly tail: readonly Float32Array[];

  constructor(main: ScriptedCaptureWindow['main'], tail: readonly Float32Array[]) {
    this.main = main;
    this.tail = tail;
  }

  command(c: CaptureCommand): void {
    if (c.action === 'start') this.session = { id: c.sessionId, seq: 0 };
    else if (c.action === 'stop') void this.stop(c.sessionId);
  }

  /** One live batch of the current session. */
  send(pcm: Float32Array, s = this.session): void {
    if (s !== null) this.main.frames(s.id, s.seq++, RATE, pcm);
  }

  private async stop(id: string): Promise<void> {
    const s = this.session?.id === id ? this.session : null;
    await hop(); // the command crosses IPC
    // The worklet's partial batch and anything still queued: sent before the report, each its own IPC call.
    for (const pcm of s === null ? [] : this.tail) {
      this.send(pcm, s);
      await hop();
    }
    if (this.session === s) this.session = null;
    this.stopped += 1;
    this.main.report({ state: 'stopped', sessionId: id, frames: s?.seq ?? 0 });
  }
}

interface Rig {
  readonly controller: DictationController;
  readonly window: ScriptedCaptureWindow;
  /** The ASR calls: sample count, ms since release(), the first sample of each 100 ms batch. */
  readonly asr: { samples: number; afterReleaseMs: number; markers: number[] }[];
  /** Key-up, timed. */
  release(): void;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function rig(tail: readonly Float32Array[], over: Record<string, unknown> = {}): Rig {
  const config: Config = configSchema.parse({ ai_enhance: { enabled: false }, output: { preview: false }, ...over });
  let controller: DictationController | null = null;
  let window: ScriptedCaptureWindow | null = null;
  const link = new CaptureLink({
    send: (command) => window?.command(command),
    received: (id) => controller?.receivedBatches(id) ?? 0,
    stopGraceMs: GRACE_MS,
  });
  window = new ScriptedCaptureWindow(
    {
      frames: (id, seq, rate, pcm) => {
        controller?.frames(id, seq, rate, pcm);
        link.check(id);
      },
      report: (s) => link.report(s),
    },
    tail,
  );
  const asr: Rig['asr'] = [];
  let released = 0;
  controller = new DictationController({
    dataDir: dir,
    config: () => config,
    capture: link,
    asr: {
      modelName: () => 'recorder',
      transcribe: async ({ pcm }) => {
        const markers: number[] = [];
        for (let at = 0; at < pcm.length; at += BATCH) markers.push(pcm[at] ?? NaN);
        asr.push({ samples: pcm.length, afterReleaseMs: performance.now() - released, markers });
        return { text: 'recorded', language: 'en' };
      },
    },
    enhance: { modes: () => [], enhance: () => Promise.reject(new Error('enhancement is off')) },
    history: { log: async () => undefined },
    output: { deliver: async () => ({ ok: true }) },
    ui: { emit: () => undefined, panel: () => undefined, sound: () => undefined },
  });
  const c = controller;
  return {
    controller: c,
    window,
    asr,
    release() {
      released = performance.now();
      c.release();
    },
  };
}

async function untilAsr(r: Rig, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (r.asr.length === 0 && Date.now() < end) await new Promise((res) => setTimeout(res, 5));
  await r.controller.settled();
}

describe('key-up → stop with the capture window', () => {
  it('the batches flushed after key-up reach ASR, and stop completes on the last one, not on the grace timer', async () => {
    const r = rig([batch(0.91), batch(0.92)]);
    r.controller.press('hold');
    for (let i = 0; i < 10; i++) r.window.send(batch(0.5));
    r.release();
    await untilAsr(r);
    expect(r.asr).toHaveLength(1);
    const call = r.asr[0]!;
    // 10 batches while held + the 2 flushed after key-up: the end of the last word is there…
    expect.soft(call.samples).toBe(12 * BATCH);
    expect.soft(call.markers.slice(-2)).toEqual([Math.fround(0.91), Math.fround(0.92)]);
    // …and the stop completed on the last batch: the grace timer is only for a window that died.
    expect.soft(call.afterReleaseMs).toBeLessThan(200);
  });

  it('the max recording length still holds for batches that arrive after the recording timer stopped it', async () => {
    // 1 s cap: 8 batches before the timer, 5 more flushed after it; only the first 10 fit.
    const r = rig([batch(0.1), batch(0.2), batch(0.3), batch(0.4), batch(0.6)], { audio: { max_recording_seconds: 1 } });
    r.controller.press('hold');
    for (let i = 0; i < 8; i++) r.window.send(batch(0.5));
    await untilAsr(r, 4000);
    expect(r.asr[0]?.samples).toBe(RATE);
    expect(r.asr[0]?.markers.slice(-2)).toEqual([Math.fround(0.1), Math.fround(0.2)]);
  });

  it('batches that arrive after a cancel are dropped, and the next dictation starts clean', async () => {
    const r = rig([batch(0.9)]);
    r.controller.press('hold');
    const first = r.controller.snapshot().sessionId ?? '';
    r.window.send(batch(0.5));
    r.controller.cancel();
    expect(r.controller.receivedBatches(first)).toBe(Number.POSITIVE_INFINITY);
    await vi.waitFor(() => expect(r.window.stopped).toBe(1));
    r.controller.press('hold');
    r.window.send(batch(0.5));
    r.release();
    await untilAsr(r);
    expect(r.asr).toHaveLength(1);
    expect(r.asr[0]?.samples).toBe(2 * BATCH);
  });
});
