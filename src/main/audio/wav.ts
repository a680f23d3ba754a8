/*
 * WAV (RIFF) encode/decode: 16-bit PCM (journal, remote upload, fixtures) and 32-bit float (lossless
 * copies of captured audio). Decoding also reads 8/24/32-bit integer PCM and WAVE_FORMAT_EXTENSIBLE, and
 * skips chunks it does not know (LIST, fact…), as files from other tools carry them.
 */

/** Sample encoding of a WAV file. */
export type WavFormat = 'pcm16' | 'float32';

/** A decoded WAV: interleaved float samples plus what the header said. */
export interface DecodedWav {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  /** 'pcm' (integer) or 'float'. */
  readonly encoding: 'pcm' | 'float';
  /** Interleaved samples in [-1, 1]. */
  readonly samples: Float32Array;
}

/** A file that is not a WAV we can read. */
export class WavError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavError';
  }
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;

/** Encodes interleaved samples as a WAV file. pcm16 rounds and clamps; float32 is lossless. */
export function encodeWav(samples: Float32Array, sampleRate: number, format: WavFormat = 'pcm16', channels = 1): Buffer {
  const bytesPer = format === 'pcm16' ? 2 : 4;
  const dataBytes = samples.length * bytesPer;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(format === 'pcm16' ? FORMAT_PCM : FORMAT_FLOAT, 20);
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * channels * bytesPer, 28);
  buf.writeUInt16LE(channels * bytesPer, 32);
  buf.writeUInt16LE(bytesPer * 8, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  let at = 44;
  if (format === 'pcm16') {
    for (let i = 0; i < samples.length; i++, at += 2) {
      const v = Math.round((samples[i] as number) * 32768);
      buf.writeInt16LE(v > 32767 ? 32767 : v < -32768 ? -32768 : v, at);
    }
  } else {
    for (let i = 0; i < samples.length; i++, at += 4) buf.writeFloatLE(samples[i] as number, at);
  }
  return buf;
}

/** Decodes a WAV file; throws WavError with the reason when it cannot. */
export function decodeWav(file: Uint8Array): DecodedWav {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new WavError('not a WAV file (no RIFF/WAVE header)');
  }
  let fmt: { format: number; channels: number; sampleRate: number; bits: number } | undefined;
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    let size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.length) throw new WavError('truncated fmt chunk');
      let format = buf.readUInt16LE(body);
      if (format === FORMAT_EXTENSIBLE && size >= 40) format = buf.readUInt16LE(body + 24); // sub-format GUID's first 2 bytes
      fmt = { format, channels: buf.readUInt16LE(body + 2), sampleRate: buf.readUInt32LE(body + 4), bits: buf.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (fmt === undefined) throw new WavError('data chunk before fmt chunk');
      // Streaming writers leave 0 or 0xFFFFFFFF as the size; take what is there.
      if (size === 0 || body + size > buf.length) size = buf.length - body;
      return { ...decodeSamples(buf.subarray(body, body + size), fmt), sampleRate: fmt.sampleRate, channels: fmt.channels };
    }
    at = body + size + (size % 2); // chunks are word-aligned
  }
  throw new WavError(fmt === undefined ? 'no fmt chunk' : 'no data chunk');
}

function decodeSamples(data: Buffer, fmt: { format: number; channels: number; sampleRate: number; bits: number }): Omit<DecodedWav, 'sampleRate' | 'channels'> {
  const { format, bits, channels, sampleRate } = fmt;
  if (channels < 1 || channels > 32) throw new WavError(`unsupported channel count ${channels}`);
  if (sampleRate < 1000 || sampleRate > 768_000) throw new WavError(`unsupported sample rate ${sampleRate}`);
  const bytes = bits / 8;
  const n = Math.floor(data.length / bytes);
  const out = new Float32Array(n);
  if (format === FORMAT_FLOAT && bits === 32) {
    for (let i = 0; i < n; i++) out[i] = data.readFloatLE(i * 4);
    return { bitsPerSample: 32, encoding: 'float', samples: out };
  }
  if (format === FORMAT_FLOAT && bits === 64) {
    for (let i = 0; i < n; i++) out[i] = data.readDoubleLE(i * 8);
    return { bitsPerSample: 64, encoding: 'float', samples: out };
  }
  if (format !== FORMAT_PCM) throw new WavError(`unsupported WAV encoding (format tag ${format}); use PCM or float`);
  switch (bits) {
    case 8:
      for (let i = 0; i < n; i++) out[i] = ((data[i] as number) - 128) / 128;
      break;
    case 16:
      for (let i = 0; i < n; i++) out[i] = data.readInt16LE(i * 2) / 32768;
      break;
    case 24:
      for (let i = 0; i < n; i++) out[i] = data.readIntLE(i * 3, 3) / 8388608;
      break;
    case 32:
      for (let i = 0; i < n; i++) out[i] = data.readInt32LE(i * 4) / 2147483648;
      break;
    default:
      throw new WavError(`unsupported bit depth ${bits}`);
  }
  return { bitsPerSample: bits, encoding: 'pcm', samples: out };
}
