/**
 * The setup guide's microphone test: 2 seconds through the same hidden capture window a dictation uses
 * (so it tests the device, the permission and the capture path the app records with), its meter level sent
 * out as the batches arrive, the recording handed back for the window to play. The batches of a test
 * carry their own session id, so they never reach the dictation controller.
 */
import type { MicTestResult } from '../../shared/ipc/onboarding-contract.ts';
import { meterLevel, peak } from '../audio/levels.ts';
import type { CaptureLink } from '../dictation/capture-link.ts';

const PREFIX = 'mic-test-';

/** What {@link createMicTester} needs. */
export interface MicTesterDeps {
  readonly link: Pick<CaptureLink, 'start' | 'stop' | 'status'>;
  /** Whether no dictation is under way (a test never takes the microphone from one). */
  readonly idle: () => boolean;
  /** Each batch's meter level, 0..1. */
  readonly level: (level: number) => void;
  readonly durationMs?: number;
}

/** The running tester: the frame router and the test itself. */
export interface MicTester {
  /** Whether session `id` is a test's (its batches go to {@link MicTester.frames}). */
  owns(id: string): boolean;
  /** Batches received for test `id` (the capture link's stop check). */
  received(id: string): number;
  frames(id: string, seq: number, sampleRate: number, pcm: Float32Array): void;
  run(): Promise<MicTestResult>;
}

/** base64 of little-endian Float32 samples: the wire format of capture frames, back the other way. */
function encode(samples: Float32Array): string {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
}

/** Creates the tester; one test runs at a time. */
export function createMicTester(deps: MicTesterDeps): MicTester {
  let current: { id: string; rate: number; batches: Map<number, Float32Array> } | null = null;
  let counter = 0;
  return {
    owns: (id) => id.startsWith(PREFIX),
    received: (id) => (current !== null && current.id === id ? current.batches.size : Number.POSITIVE_INFINITY),
    frames(id, seq, sampleRate, pcm) {
      if (current === null || current.id !== id || current.batches.has(seq)) return;
      current.rate = sampleRate;
      current.batches.set(seq, pcm);
      deps.level(meterLevel(pcm));
    },
    async run() {
      if (current !== null || !deps.idle()) return { ok: false, code: 'busy', message: '' };
      const status = deps.link.status;
      if (status?.state === 'error') return { ok: false, code: 'unavailable', message: status.message };
      const test = { id: `${PREFIX}${Date.now()}-${++counter}`, rate: 16_000, batches: new Map<number, Float32Array>() };
      current = test;
      try {
        // No pre-roll: the test is what was said after the click.
        deps.link.start(test.id, 0);
        await new Promise((r) => setTimeout(r, deps.durationMs ?? 2000));
        await deps.link.stop(test.id);
      } finally {
        current = null;
      }
      const parts = [...test.batches.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
      const all = new Float32Array(parts.reduce((n, b) => n + b.length, 0));
      let at = 0;
      for (const b of parts) {
        all.set(b, at);
        at += b.length;
      }
      if (all.length === 0 || peak(all) === 0) {
        const after = deps.link.status;
        return { ok: false, code: after?.state === 'error' ? 'unavailable' : 'silent', message: after?.state === 'error' ? after.message : '' };
      }
      return { ok: true, sampleRate: test.rate, pcm: encode(all), level: meterLevel(all) };
    },
  };
}
