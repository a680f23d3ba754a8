/**
 * Facts about the bundled start/stop sounds (assets/sounds, made by scripts/make-sounds.mjs) that main
 * needs: how long they play (capture waits for the start sound to end, so it is never recorded), and
 * how to read a WAV's duration to check that.
 */

/** Upper bound of each bundled sound's length in ms. */
export const SOUND_MS: Readonly<Record<'start' | 'stop', number>> = { start: 120, stop: 120 };

/** Duration in ms of a PCM WAV file's data (null when the bytes are not a WAV it understands). */
export function wavDurationMs(bytes: Uint8Array): number | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 44 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') return null;
  let at = 12;
  let byteRate = 0;
  while (at + 8 <= b.length) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = b.readUInt32LE(at + 16);
    if (id === 'data') return byteRate > 0 ? (size / byteRate) * 1000 : null;
    at += 8 + size + (size % 2);
  }
  return null;
}
