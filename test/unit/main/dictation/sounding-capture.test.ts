import { describe, expect, it } from 'vitest';
import { SoundingCapture } from '../../../../src/main/dictation/sounding-capture.ts';

function setup(enabled: boolean) {
  const log: string[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const cap = new SoundingCapture({
    inner: {
      start: (id, pre) => log.push(`start:${id}:${pre ?? 'default'}`),
      stop: async (id) => {
        log.push(`stop:${id}`);
      },
    },
    enabled: () => enabled,
    play: (w) => log.push(`sound:${w}`),
    startSoundMs: 120,
    marginMs: 100,
    setTimeout: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimeout: (h) => ((h as { cleared: boolean }).cleared = true),
  });
  return { cap, log, timers };
}

describe('SoundingCapture', () => {
  it('sounds on: start sound, then capture (no pre-roll) after the sound; stop sound only after capture stopped', async () => {
    const { cap, log, timers } = setup(true);
    cap.start('a');
    expect(log).toEqual(['sound:start']);
    expect(timers[0]?.ms).toBe(220);
    timers[0]!.fn();
    expect(log).toEqual(['sound:start', 'start:a:0']);
    await cap.stop('a');
    expect(log).toEqual(['sound:start', 'start:a:0', 'stop:a', 'sound:stop']);
  });

  it('a release during the start sound cancels the delayed start', async () => {
    const { cap, log, timers } = setup(true);
    cap.start('b');
    await cap.stop('b');
    expect(timers[0]?.cleared).toBe(true);
    expect(log).toEqual(['sound:start', 'stop:b', 'sound:stop']);
  });

  it('sounds off: passes straight through and keeps the configured pre-roll', async () => {
    const { cap, log, timers } = setup(false);
    cap.start('c');
    await cap.stop('c');
    expect(timers).toEqual([]);
    expect(log).toEqual(['start:c:default', 'stop:c']);
  });
});
