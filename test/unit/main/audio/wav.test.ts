import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeWav, encodeWav, WavError } from '../../../../src/main/audio/wav.ts';
import { floatToInt16, int16ToFloat } from '../../../../src/main/audio/pcm.ts';
import { hasTool, speechWav } from '../../../helpers/audio-fixtures.ts';

const tools = hasTool('espeak-ng') && hasTool('sox');

describe('WAV encode/decode', () => {
  it.skipIf(!tools)('round-trips an espeak-ng/sox 16-bit file bit-exactly', () => {
    const original = fs.readFileSync(speechWav('hello world this is a test'));
    const decoded = decodeWav(original);
    expect(decoded).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, encoding: 'pcm' });
    const again = encodeWav(decoded.samples, decoded.sampleRate, 'pcm16');
    // sox writes a plain 44-byte header for this format, so the whole file must come back identical.
    const dataAt = original.indexOf('data') + 8;
    expect(Buffer.compare(again.subarray(44), original.subarray(dataAt))).toBe(0);
    expect(decodeWav(again).samples).toEqual(decoded.samples);
  });

  it('round-trips every int16 value exactly', () => {
    const all = new Int16Array(65536);
    for (let i = 0; i < all.length; i++) all[i] = i - 32768;
    const wav = encodeWav(int16ToFloat(all), 16000, 'pcm16');
    expect(floatToInt16(decodeWav(wav).samples)).toEqual(all);
  });

  it('round-trips float32 exactly, stereo included', () => {
    const s = new Float32Array([0, 0.1, -0.25, 1, -1, 1e-7, 0.333333, -0.999]);
    const d = decodeWav(encodeWav(s, 48000, 'float32', 2));
    expect(d).toMatchObject({ sampleRate: 48000, channels: 2, encoding: 'float', bitsPerSample: 32 });
    expect(d.samples).toEqual(s);
  });

  it('clamps out-of-range floats when writing 16-bit', () => {
    const d = decodeWav(encodeWav(new Float32Array([2, -2]), 16000));
    expect(Array.from(d.samples)).toEqual([32767 / 32768, -1]);
  });

  it('skips unknown chunks and reads 24-bit PCM', () => {
    const fmt = Buffer.alloc(24);
    fmt.write('fmt ', 0);
    fmt.writeUInt32LE(16, 4);
    fmt.writeUInt16LE(1, 8);
    fmt.writeUInt16LE(1, 10);
    fmt.writeUInt32LE(8000, 12);
    fmt.writeUInt32LE(24000, 16);
    fmt.writeUInt16LE(3, 20);
    fmt.writeUInt16LE(24, 22);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc'), Buffer.from([0])]);
    const data = Buffer.concat([Buffer.from('data'), Buffer.from([6, 0, 0, 0]), Buffer.from([0, 0, 0x40, 0, 0, 0xc0])]);
    const body = Buffer.concat([Buffer.from('WAVE'), fmt, list, data]);
    const file = Buffer.concat([Buffer.from('RIFF'), Buffer.from([body.length, 0, 0, 0]), body]);
    const d = decodeWav(file);
    expect(Array.from(d.samples)).toEqual([0.5, -0.5]);
  });

  it('refuses what is not a WAV with a clear error', () => {
    expect(() => decodeWav(Buffer.from('OggS0000000000000000'))).toThrow(WavError);
    expect(() => decodeWav(Buffer.from('OggS0000000000000000'))).toThrow(/not a WAV/);
    const noData = encodeWav(new Float32Array(4), 16000).subarray(0, 36);
    expect(() => decodeWav(noData)).toThrow(/no data chunk/);
  });
});
