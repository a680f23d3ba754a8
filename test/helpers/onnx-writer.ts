/*
 * A minimal ONNX protobuf *writer*, enough to build small random-weight models that onnxruntime (the copy
 * bundled in sherpa-onnx-node) loads. Hand-written instead of a protobuf library: ONNX only needs varints,
 * length-delimited fields and little-endian raw tensor bytes, and the field numbers below are fixed by
 * onnx/onnx.proto (cited per message). No new dependency, no Python.
 */

type Field = Uint8Array;

function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A varint field (wire type 0). */
function vField(num: number, value: number | bigint): Field {
  return new Uint8Array([...varint((num << 3) | 0), ...varint(value)]);
}

/** A length-delimited field (wire type 2): bytes, a string or a nested message. */
function lField(num: number, body: Uint8Array | string): Field {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return concat([new Uint8Array([...varint((num << 3) | 2), ...varint(bytes.length)]), bytes]);
}

/** ONNX TensorProto.DataType values used here. */
export const DType = { FLOAT: 1, UINT8: 2, INT32: 6, INT64: 7 } as const;
export type DTypeCode = (typeof DType)[keyof typeof DType];

/** An initializer: TensorProto { dims=1, data_type=2, name=8, raw_data=9 }. */
export interface Tensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Float32Array | Int32Array | BigInt64Array | Uint8Array;
}

function dtypeOf(data: Tensor['data']): DTypeCode {
  if (data instanceof Float32Array) return DType.FLOAT;
  if (data instanceof Int32Array) return DType.INT32;
  if (data instanceof Uint8Array) return DType.UINT8; // quantized weights (onnxruntime's QUInt8)
  return DType.INT64;
}

function tensorProto(t: Tensor): Uint8Array {
  const raw = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength); // x86/ARM: little-endian, as ONNX wants
  return concat([...t.dims.map((d) => vField(1, d)), vField(2, dtypeOf(t.data)), lField(8, t.name), lField(9, raw)]);
}

/** Node attribute: AttributeProto { name=1, f=2, i=3, t=5, ints=8, type=20 } (type: FLOAT=1, INT=2, TENSOR=4, INTS=7). */
export type Attr = { readonly int: number } | { readonly ints: readonly number[] } | { readonly float: number } | { readonly tensor: Tensor };

function attributeProto(name: string, a: Attr): Uint8Array {
  const parts: Uint8Array[] = [lField(1, name)];
  if ('int' in a) parts.push(vField(3, a.int), vField(20, 2));
  else if ('ints' in a) parts.push(...a.ints.map((i) => vField(8, i)), vField(20, 7));
  else if ('float' in a) {
    const f = new Uint8Array(new Float32Array([a.float]).buffer);
    parts.push(concat([new Uint8Array([(2 << 3) | 5]), f]), vField(20, 1));
  } else parts.push(lField(5, tensorProto(a.tensor)), vField(20, 4));
  return concat(parts);
}

/** A graph node: NodeProto { input=1, output=2, name=3, op_type=4, attribute=5 }. */
export interface Node {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attrs?: Readonly<Record<string, Attr>>;
}

function nodeProto(n: Node, index: number): Uint8Array {
  return concat([
    ...n.inputs.map((i) => lField(1, i)),
    ...n.outputs.map((o) => lField(2, o)),
    lField(3, `${n.op}_${index}`),
    lField(4, n.op),
    ...Object.entries(n.attrs ?? {}).map(([k, a]) => lField(5, attributeProto(k, a))),
  ]);
}

/** A graph input/output. Dims: a number is fixed, a string is symbolic (dynamic, e.g. 'N', 'T'). */
export interface ValueInfo {
  readonly name: string;
  readonly dtype: DTypeCode;
  readonly dims: readonly (number | string)[];
}

/** ValueInfoProto { name=1, type=2 } → TypeProto { tensor_type=1 } → { elem_type=1, shape=2 } → dim=1 { dim_value=1, dim_param=2 }. */
function valueInfoProto(v: ValueInfo): Uint8Array {
  const dims = v.dims.map((d) => lField(1, typeof d === 'number' ? vField(1, d) : lField(2, d)));
  const tensorType = concat([vField(1, v.dtype), lField(2, concat(dims))]);
  return concat([lField(1, v.name), lField(2, lField(1, tensorType))]);
}

/** A whole model. */
export interface ModelSpec {
  readonly nodes: readonly Node[];
  readonly initializers: readonly Tensor[];
  readonly inputs: readonly ValueInfo[];
  readonly outputs: readonly ValueInfo[];
  /** ModelProto.metadata_props: what sherpa-onnx reads with SHERPA_ONNX_READ_META_DATA*. */
  readonly metadata: Readonly<Record<string, string | number>>;
  /** Default opset 13, the one sherpa-onnx's export scripts use. */
  readonly opset?: number;
}

/**
 * Serialises a ModelProto { ir_version=1, producer_name=2, graph=7, opset_import=8 {domain=1, version=2},
 * metadata_props=14 {key=1, value=2} } with GraphProto { node=1, name=2, initializer=5, input=11, output=12 }.
 */
export function encodeOnnxModel(spec: ModelSpec): Uint8Array {
  const graph = concat([
    ...spec.nodes.map((n, i) => lField(1, nodeProto(n, i))),
    lField(2, 'tingxie_random'),
    ...spec.initializers.map((t) => lField(5, tensorProto(t))),
    ...spec.inputs.map((v) => lField(11, valueInfoProto(v))),
    ...spec.outputs.map((v) => lField(12, valueInfoProto(v))),
  ]);
  return concat([
    vField(1, 8), // IR version 8: what onnxruntime ≥ 1.14 accepts for opset 13 models
    lField(2, 'tingxie-test'),
    lField(7, graph),
    lField(8, concat([lField(1, ''), vField(2, spec.opset ?? 13)])),
    ...Object.entries(spec.metadata).map(([k, v]) => lField(14, concat([lField(1, k), lField(2, String(v))]))),
  ]);
}

/** Seeded uniform weights in [-scale, scale). */
export function randomFloats(n: number, rand: () => number, scale: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
  return out;
}
