import fs from 'node:fs';

/*
 * Validates a whisper ggml model file before it reaches whisper.cpp, whose loader crashes the process on
 * a missing, foreign or truncated file. We walk the whole structure without reading tensor data: magic,
 * hyper-parameters, mel filters, vocabulary, then every tensor header, checking that each tensor's data
 * fits in the file and that the tensor count matches the layer counts. That costs a few hundred small
 * reads (milliseconds) and catches partial downloads exactly.
 */

/** Hyper-parameters from the file header. */
export interface WhisperHparams {
  readonly nVocab: number;
  readonly nAudioCtx: number;
  readonly nAudioState: number;
  readonly nAudioHead: number;
  readonly nAudioLayer: number;
  readonly nTextCtx: number;
  readonly nTextState: number;
  readonly nTextHead: number;
  readonly nTextLayer: number;
  readonly nMels: number;
  readonly ftype: number;
}

/** What validation learned about a good file. */
export interface ModelFileInfo {
  readonly path: string;
  readonly bytes: number;
  readonly hparams: WhisperHparams;
  readonly tensors: number;
  readonly multilingual: boolean;
  /** Model family by encoder width: tiny, base, small, medium, large, or custom. */
  readonly family: string;
}

/** Why a model file was refused. */
export class ModelFileError extends Error {
  readonly reason: 'missing' | 'invalid';
  constructor(reason: 'missing' | 'invalid', message: string) {
    super(message);
    this.name = 'ModelFileError';
    this.reason = reason;
  }
}

/** ggml magic 0x67676d6c, which reads 'lmgg' on disk (little-endian). */
export const GGML_MAGIC = 0x67676d6c;

/** Bytes per block and elements per block of the ggml tensor types whisper models use. */
const TYPE_SIZES: Readonly<Record<number, readonly [bytes: number, block: number]>> = {
  0: [4, 1], // f32
  1: [2, 1], // f16
  2: [18, 32], // q4_0
  3: [20, 32], // q4_1
  6: [22, 32], // q5_0
  7: [24, 32], // q5_1
  8: [34, 32], // q8_0
};

const FAMILIES: Readonly<Record<number, string>> = { 384: 'tiny', 512: 'base', 768: 'small', 1024: 'medium', 1280: 'large' };

class Reader {
  private readonly fd: number;
  readonly size: number;
  pos = 0;
  private readonly scratch = Buffer.alloc(256);

  constructor(fd: number, size: number) {
    this.fd = fd;
    this.size = size;
  }

  bytes(n: number, what: string): Buffer {
    if (this.pos + n > this.size) throw new ModelFileError('invalid', `model file is truncated (reading ${what} at byte ${this.pos} of ${this.size})`);
    const buf = n <= this.scratch.length ? this.scratch.subarray(0, n) : Buffer.alloc(n);
    fs.readSync(this.fd, buf, 0, n, this.pos);
    this.pos += n;
    return buf;
  }

  i32(what: string): number {
    return this.bytes(4, what).readInt32LE(0);
  }

  skip(n: number, what: string): void {
    if (this.pos + n > this.size) throw new ModelFileError('invalid', `model file is truncated (${what} needs ${n} bytes at ${this.pos}, file has ${this.size}); re-download it`);
    this.pos += n;
  }
}

function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new ModelFileError('invalid', `not a usable whisper model: ${message}`);
}

/** Validates `file` as a whisper ggml model; throws ModelFileError with the reason when it is not one. */
export function validateModelFile(file: string): ModelFileInfo {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ModelFileError('missing', code === 'ENOENT' ? `model file not found: ${file}` : `cannot open model file ${file}: ${(err as Error).message}`);
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size < 1024) throw new ModelFileError('invalid', `not a whisper model: ${file} is only ${size} bytes`);
    const r = new Reader(fd, size);
    const magic = r.i32('magic') >>> 0;
    if (magic !== GGML_MAGIC) {
      throw new ModelFileError('invalid', `not a whisper ggml model: ${file} does not start with 'lmgg'${magic === 0x46554747 ? ' (it is a GGUF file, which whisper.cpp does not load)' : ''}`);
    }
    const v = Array.from({ length: 11 }, (_, i) => r.i32(`hparam ${i}`));
    const h: WhisperHparams = {
      nVocab: v[0] as number, nAudioCtx: v[1] as number, nAudioState: v[2] as number, nAudioHead: v[3] as number,
      nAudioLayer: v[4] as number, nTextCtx: v[5] as number, nTextState: v[6] as number, nTextHead: v[7] as number,
      nTextLayer: v[8] as number, nMels: v[9] as number, ftype: v[10] as number,
    };
    check(h.nVocab >= 51864 && h.nVocab <= 51866, `vocabulary size ${h.nVocab}`);
    check(h.nAudioCtx > 0 && h.nAudioCtx <= 1500, `audio context ${h.nAudioCtx}`);
    check(h.nTextCtx > 0 && h.nTextCtx <= 448, `text context ${h.nTextCtx}`);
    check(h.nAudioState > 0 && h.nAudioState <= 4096 && h.nAudioState === h.nTextState, `widths ${h.nAudioState}/${h.nTextState}`);
    check(h.nAudioHead > 0 && h.nAudioState % h.nAudioHead === 0 && h.nTextHead > 0 && h.nTextState % h.nTextHead === 0, 'head counts');
    check(h.nAudioLayer > 0 && h.nAudioLayer <= 64 && h.nTextLayer > 0 && h.nTextLayer <= 64, `layer counts ${h.nAudioLayer}/${h.nTextLayer}`);
    check(h.nMels === 80 || h.nMels === 128, `mel count ${h.nMels}`);
    check(h.ftype % 1000 >= 0 && h.ftype % 1000 <= 20, `ftype ${h.ftype}`);
    const nMel = r.i32('mel count');
    const nFft = r.i32('fft size');
    check(nMel === h.nMels && nFft > 0 && nFft <= 1024, `mel filter header ${nMel}×${nFft}`);
    r.skip(nMel * nFft * 4, 'mel filters');
    const nTokens = r.i32('vocabulary count');
    check(nTokens > 0 && nTokens <= h.nVocab, `vocabulary count ${nTokens}`);
    for (let i = 0; i < nTokens; i++) {
      const len = r.i32('token length');
      check(len >= 0 && len <= 256, `token ${i} length ${len}`);
      r.skip(len, 'vocabulary');
    }
    const expected = 11 + 15 * h.nAudioLayer + 24 * h.nTextLayer;
    let tensors = 0;
    while (r.pos < size) {
      const nDims = r.i32('tensor header');
      const nameLen = r.i32('tensor header');
      const ttype = r.i32('tensor header');
      check(nDims >= 1 && nDims <= 4 && nameLen > 0 && nameLen < 256, `tensor ${tensors} header`);
      const sizes = TYPE_SIZES[ttype];
      check(sizes !== undefined, `tensor ${tensors} has unsupported type ${ttype}`);
      let elements = 1;
      for (let d = 0; d < nDims; d++) {
        const ne = r.i32('tensor shape');
        check(ne > 0, `tensor ${tensors} shape`);
        elements *= ne;
      }
      r.skip(nameLen, 'tensor name');
      r.skip(Math.ceil(elements / sizes[1]) * sizes[0], `tensor ${tensors} data`);
      tensors++;
      check(tensors <= expected, `more tensors than ${expected}`);
    }
    check(tensors === expected, `${tensors} tensors, expected ${expected} (truncated download?)`);
    return { path: file, bytes: size, hparams: h, tensors, multilingual: h.nVocab >= 51865, family: FAMILIES[h.nAudioState] ?? 'custom' };
  } finally {
    fs.closeSync(fd);
  }
}
