import fs from 'node:fs';

/*
 * Reads what a sherpa-onnx model must declare — ModelProto.metadata_props and the graph's input and output
 * names — without loading the file, because sherpa-onnx cannot always fail politely: a metadata key it
 * requires that is missing calls exit(-1) (SHERPA_ONNX_READ_META_DATA in sherpa-onnx/csrc/macros.h), on
 * the async load path too, and with the synchronous constructor a file onnxruntime cannot parse throws an
 * Ort::Exception nobody catches (std::terminate; seen with sherpa-onnx-node 1.13.8). Either takes the
 * whole process down, so the engine checks first and reports a named error.
 *
 * A streaming scan of the protobuf wire format: only tags and lengths are read; large fields (weights,
 * hundreds of MB in real models) are skipped by seeking. Field numbers from onnx/onnx.proto: ModelProto
 * graph=7, metadata_props=14 {key=1, value=2}; GraphProto input=11, output=12; ValueInfoProto name=1,
 * type=2; TypeProto tensor_type=1; TypeProto.Tensor shape=2; TensorShapeProto dim=1; Dimension
 * dim_value=1 (varint), dim_param=2 (string).
 */

/** What the scan found. */
export interface OnnxInfo {
  readonly metadata: ReadonlyMap<string, string>;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** Declared shape of each input: a number per fixed dimension, a name per symbolic one; absent when undeclared. */
  readonly inputShapes: ReadonlyMap<string, readonly (number | string)[]>;
}

/** The file is not a readable ONNX model. */
export class OnnxFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OnnxFormatError';
  }
}

const CHUNK = 1 << 16;

/** Buffered positional reader over a file descriptor. */
class Reader {
  private buf = Buffer.alloc(0);
  private bufAt = 0;
  private readonly fd: number;
  readonly size: number;
  constructor(fd: number, size: number) {
    this.fd = fd;
    this.size = size;
  }

  byte(pos: number): number {
    if (pos >= this.size) throw new OnnxFormatError('truncated ONNX file');
    if (pos < this.bufAt || pos >= this.bufAt + this.buf.length) {
      this.buf = Buffer.alloc(Math.min(CHUNK, this.size - pos));
      fs.readSync(this.fd, this.buf, 0, this.buf.length, pos);
      this.bufAt = pos;
    }
    return this.buf[pos - this.bufAt] as number;
  }

  bytes(pos: number, len: number): Buffer {
    if (pos + len > this.size) throw new OnnxFormatError('truncated ONNX file');
    const out = Buffer.alloc(len);
    fs.readSync(this.fd, out, 0, len, pos);
    return out;
  }

  /** A varint at `pos`: [value, next position]. Values above 2^53 are not needed here (lengths, tags). */
  varint(pos: number): [number, number] {
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte(pos + i);
      value += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return [value, pos + i + 1];
      mul *= 128;
    }
    throw new OnnxFormatError('malformed varint');
  }
}

interface FieldAt {
  readonly num: number;
  readonly wire: number;
  /** Start of the payload (length-delimited) or of the value. */
  readonly at: number;
  readonly len: number;
}

/** Walks the fields of the message in [start, end), calling `visit` for each. */
function walk(r: Reader, start: number, end: number, visit: (f: FieldAt) => void): void {
  let pos = start;
  while (pos < end) {
    const [tag, afterTag] = r.varint(pos);
    const num = Math.floor(tag / 8);
    const wire = tag & 7;
    if (num === 0) throw new OnnxFormatError('invalid protobuf field number 0');
    let next: number;
    let len = 0;
    let at = afterTag;
    if (wire === 0) next = r.varint(afterTag)[1];
    else if (wire === 1) next = afterTag + 8;
    else if (wire === 5) next = afterTag + 4;
    else if (wire === 2) {
      [len, at] = r.varint(afterTag);
      next = at + len;
    } else throw new OnnxFormatError(`unsupported protobuf wire type ${wire}`);
    if (next > end) throw new OnnxFormatError('protobuf field runs past the end of the file');
    visit({ num, wire, at, len });
    pos = next;
  }
}

function stringsOf(r: Reader, f: FieldAt, keys: readonly number[]): Map<number, string> {
  const out = new Map<number, string>();
  walk(r, f.at, f.at + f.len, (g) => {
    if (g.wire === 2 && keys.includes(g.num)) out.set(g.num, r.bytes(g.at, g.len).toString('utf8'));
  });
  return out;
}

/** The first length-delimited field `num` inside `f`, or undefined. */
function child(r: Reader, f: FieldAt, num: number): FieldAt | undefined {
  let found: FieldAt | undefined;
  walk(r, f.at, f.at + f.len, (g) => {
    if (found === undefined && g.num === num && g.wire === 2) found = g;
  });
  return found;
}

/** The declared shape of a ValueInfoProto (type → tensor_type → shape → dims), or undefined. */
function shapeOf(r: Reader, valueInfo: FieldAt): (number | string)[] | undefined {
  const type = child(r, valueInfo, 2);
  const tensor = type === undefined ? undefined : child(r, type, 1);
  const shape = tensor === undefined ? undefined : child(r, tensor, 2);
  if (shape === undefined) return undefined;
  const dims: (number | string)[] = [];
  walk(r, shape.at, shape.at + shape.len, (d) => {
    if (d.num !== 1 || d.wire !== 2) return;
    let dim: number | string = '?';
    walk(r, d.at, d.at + d.len, (v) => {
      if (v.num === 1 && v.wire === 0) dim = r.varint(v.at)[0];
      else if (v.num === 2 && v.wire === 2) dim = r.bytes(v.at, v.len).toString('utf8');
    });
    dims.push(dim);
  });
  return dims;
}

/** Scans an ONNX file. Throws OnnxFormatError when it is not one (or is truncated). */
export function readOnnxInfo(file: string): OnnxInfo {
  const fd = fs.openSync(file, 'r');
  try {
    const r = new Reader(fd, fs.fstatSync(fd).size);
    const metadata = new Map<string, string>();
    const inputs: string[] = [];
    const outputs: string[] = [];
    const inputShapes = new Map<string, (number | string)[]>();
    let graphs = 0;
    walk(r, 0, r.size, (f) => {
      if (f.num === 14 && f.wire === 2) {
        const kv = stringsOf(r, f, [1, 2]);
        metadata.set(kv.get(1) ?? '', kv.get(2) ?? '');
      } else if (f.num === 7 && f.wire === 2) {
        graphs++;
        walk(r, f.at, f.at + f.len, (g) => {
          if ((g.num === 11 || g.num === 12) && g.wire === 2) {
            const name = stringsOf(r, g, [1]).get(1) ?? '';
            (g.num === 11 ? inputs : outputs).push(name);
            const shape = g.num === 11 ? shapeOf(r, g) : undefined;
            if (shape !== undefined) inputShapes.set(name, shape);
          }
        });
      }
    });
    if (graphs !== 1 || outputs.length === 0) throw new OnnxFormatError('no ONNX graph in the file');
    return { metadata, inputs, outputs, inputShapes };
  } finally {
    fs.closeSync(fd);
  }
}
