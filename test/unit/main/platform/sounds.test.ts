import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOUND_MS, wavDurationMs } from '../../../../src/main/platform/sounds.ts';

const dir = path.resolve(import.meta.dirname, '../../../../assets/sounds');

describe('bundled sounds', () => {
  it.each(['start', 'stop'] as const)('%s.wav is a real WAV no longer than SOUND_MS (capture waits that long)', (which) => {
    const ms = wavDurationMs(readFileSync(path.join(dir, `${which}.wav`)));
    expect(ms).not.toBeNull();
    expect(ms!).toBeGreaterThan(50);
    expect(ms!).toBeLessThanOrEqual(SOUND_MS[which]);
  });
  it('rejects bytes that are not a WAV', () => {
    expect(wavDurationMs(new TextEncoder().encode('not a wav file at all, just some text here...'))).toBeNull();
  });
});
