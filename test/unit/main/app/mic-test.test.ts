import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMicTester } from '../../../../src/main/app/mic-test.ts';
import { permissionChecks, mediaState, captureState } from '../../../../src/main/app/permission-checks.ts';
import type { CaptureStatus } from '../../../../src/shared/ipc/dictation-types.ts';

/** A capture link that records the commands and lets the test feed batches. */
function fakeLink(status: CaptureStatus | null = { state: 'ready', sampleRate: 16_000, deviceLabel: 'mic' }) {
  const commands: string[] = [];
  return { commands, link: { status, start: (id: string, pre?: number) => void commands.push(`start ${id} ${pre}`), stop: (id: string) => (commands.push(`stop ${id}`), Promise.resolve()) } };
}

const sine = (n: number, amp: number) => Float32Array.from({ length: n }, (_, i) => amp * Math.sin(i / 5));

describe('the setup guide microphone test', () => {
  afterEach(() => vi.useRealTimers());

  it('records 2 s under its own id with no pre-roll, meters each batch, and returns the batches in order', async () => {
    vi.useFakeTimers();
    const { link, commands } = fakeLink();
    const levels: number[] = [];
    const t = createMicTester({ link, idle: () => true, level: (l) => levels.push(l) });
    const run = t.run();
    const id = /^start (\S+) 0$/.exec(commands[0] ?? '')?.[1] ?? '';
    expect(t.owns(id)).toBe(true);
    expect(t.owns('a-dictation-id')).toBe(false);
    t.frames(id, 1, 16_000, Float32Array.of(0.5, 0.5));
    t.frames(id, 0, 16_000, Float32Array.of(0.25));
    t.frames(id, 0, 16_000, Float32Array.of(0.9)); // a duplicate batch is dropped
    t.frames('other', 0, 16_000, Float32Array.of(1)); // not this test's
    expect(t.received(id)).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    const r = await run;
    expect(commands).toEqual([`start ${id} 0`, `stop ${id}`]);
    expect(levels).toHaveLength(2);
    expect(levels.every((l) => l >= 0.79)).toBe(true);
    if (!r.ok) throw new Error('expected a recording');
    const bytes = Buffer.from(r.pcm, 'base64');
    const back = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(Array.from(back)).toEqual([0.25, 0.5, 0.5]);
    expect(r.sampleRate).toBe(16_000);
  });

  it('refuses while a dictation runs, says an unopened microphone, and calls digital silence silent', async () => {
    expect(await createMicTester({ link: fakeLink().link, idle: () => false, level: () => undefined }).run()).toMatchObject({ ok: false, code: 'busy' });
    const broken = fakeLink({ state: 'error', message: 'NotAllowedError: Permission denied' }).link;
    expect(await createMicTester({ link: broken, idle: () => true, level: () => undefined }).run()).toEqual({ ok: false, code: 'unavailable', message: 'NotAllowedError: Permission denied' });
    const { link, commands } = fakeLink();
    const t = createMicTester({ link, idle: () => true, level: () => undefined, durationMs: 10 });
    const run = t.run();
    const id = commands[0]?.split(' ')[1] ?? '';
    t.frames(id, 0, 16_000, new Float32Array(160));
    expect(await run).toMatchObject({ ok: false, code: 'silent' });
    // Something to hear: a quiet tone is not silence.
    const t2 = createMicTester({ link, idle: () => true, level: () => undefined, durationMs: 10 });
    const run2 = t2.run();
    t2.frames(commands.at(-1)?.split(' ')[1] ?? '', 0, 16_000, sine(160, 0.01));
    expect((await run2).ok).toBe(true);
  });
});

describe('permission checks', () => {
  it('macOS: microphone, Accessibility and the key hook, each with a pane', () => {
    expect(permissionChecks('darwin', { os: 'not-determined', capture: 'unknown', trusted: false, hook: false })).toEqual([
      { id: 'microphone', state: 'not-determined', canOpen: true },
      { id: 'accessibility', state: 'denied', canOpen: true },
      { id: 'key-hook', state: 'denied', canOpen: true },
    ]);
  });

  it('Linux: no Accessibility row, no panes; the capture window and the hook are the checks', () => {
    expect(permissionChecks('linux', { os: null, capture: 'granted', trusted: null, hook: true })).toEqual([
      { id: 'microphone', state: 'granted', canOpen: false },
      { id: 'key-hook', state: 'granted', canOpen: false },
    ]);
  });

  it('the device that did not open wins over a granted OS permission; the OS answer stands before the capture window spoke', () => {
    expect(permissionChecks('win32', { os: 'granted', capture: 'denied', trusted: null, hook: true })[0]?.state).toBe('denied');
    expect(permissionChecks('win32', { os: 'denied', capture: 'unknown', trusted: null, hook: true })[0]?.state).toBe('denied');
    expect(mediaState('restricted')).toBe('denied');
    expect(mediaState('weird')).toBe('unknown');
    expect(captureState(null)).toBe('unknown');
    expect(captureState({ state: 'error', message: 'x' })).toBe('denied');
  });
});
