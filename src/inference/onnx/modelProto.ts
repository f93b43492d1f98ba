/**
 * ONNX ModelProto as plain data, and its serialisation with our protobuf writer. Only what tiny
 * test models need: nodes with attributes, initializers as raw little-endian bytes, typed graph
 * inputs/outputs with fixed or symbolic dims, one default-domain opset import.
 * Field numbers are those of onnx/onnx.proto (stable since IR version 3).
 */
import { ProtoWriter } from './protobuf';

/** Element types we emit, named like ORT's tensor types so the same strings work on both sides. */
export type OnnxElemType = 'float32' | 'uint8' | 'int32' | 'int64' | 'bool';

const ELEM_CODE: Record<OnnxElemType, number> = { float32: 1, uint8: 2, int32: 6, int64: 7, bool: 9 };

/** A dimension is a fixed size or a symbolic name ("num_points"); symbolic dims keep inputs dynamic. */
export type Dim = number | string;

export interface ValueInfo {
  name: string;
  type: OnnxElemType;
  dims: readonly Dim[];
}

export type TensorValues = Float32Array | Uint8Array | Int32Array | BigInt64Array;

export interface Initializer {
  name: string;
  type: OnnxElemType;
  dims: readonly number[];
  data: TensorValues;
}

export type Attribute =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'ints'; value: readonly number[] }
  | { kind: 'floats'; value: readonly number[] }
  | { kind: 'tensor'; value: Initializer };

export interface OnnxNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Readonly<Record<string, Attribute>>;
}

export interface OnnxGraph {
  name: string;
  nodes: readonly OnnxNode[];
  inputs: readonly ValueInfo[];
  outputs: readonly ValueInfo[];
  initializers: readonly Initializer[];
  doc?: string;
}

export interface OnnxModel {
  graph: OnnxGraph;
  /** Default-domain opset. 17 keeps ReduceMean's `axes` an attribute (it became an input in 18). */
  opset: number;
  producer?: string;
}

/** IR version matching an opset (onnx/docs/Versioning.md); ORT rejects IR newer than it knows. */
export function irVersionForOpset(opset: number): number {
  if (opset <= 14) return 7;
  if (opset <= 18) return 8;
  if (opset <= 20) return 9;
  return 10;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function rawBytes(data: TensorValues): Uint8Array {
  // TensorProto.raw_data is little-endian by definition; typed arrays use the platform order.
  if (!LITTLE_ENDIAN) throw new Error('big-endian platforms are not supported by the ONNX writer');
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
}

function expectedCount(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

function encodeTensor(t: Initializer): ProtoWriter {
  const count = expectedCount(t.dims);
  if (count !== t.data.length) {
    throw new RangeError(`initializer ${t.name}: dims [${t.dims.join(',')}] need ${count} values, got ${t.data.length}`);
  }
  const w = new ProtoWriter();
  for (const d of t.dims) w.int(1, d); // dims (repeated int64, unpacked is always legal)
  w.int(2, ELEM_CODE[t.type]); // data_type
  w.string(8, t.name); // name
  w.bytes(9, rawBytes(t.data)); // raw_data
  return w;
}

function encodeValueInfo(v: ValueInfo): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of v.dims) {
    const dim = new ProtoWriter();
    if (typeof d === 'number') dim.int(1, d); // dim_value
    else dim.string(2, d); // dim_param
    shape.message(1, dim);
  }
  const tensorType = new ProtoWriter().int(1, ELEM_CODE[v.type]).message(2, shape);
  const type = new ProtoWriter().message(1, tensorType); // TypeProto.tensor_type
  return new ProtoWriter().string(1, v.name).message(2, type);
}

// AttributeProto.AttributeType enum values.
const ATTR_TYPE = { float: 1, int: 2, string: 3, tensor: 4, floats: 6, ints: 7 } as const;

function encodeAttribute(name: string, a: Attribute): ProtoWriter {
  const w = new ProtoWriter().string(1, name);
  switch (a.kind) {
    case 'float':
      w.float(2, a.value);
      break;
    case 'int':
      w.int(3, a.value);
      break;
    case 'string':
      w.string(4, a.value);
      break;
    case 'tensor':
      w.message(5, encodeTensor(a.value));
      break;
    case 'floats':
      w.packedFloats(7, a.value);
      break;
    case 'ints':
      w.packedInts(8, a.value);
      break;
  }
  return w.int(20, ATTR_TYPE[a.kind]);
}

function encodeNode(n: OnnxNode, index: number): ProtoWriter {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, n.name ?? `${n.op}_${index}`);
  w.string(4, n.op);
  for (const [k, a] of Object.entries(n.attributes ?? {})) w.message(5, encodeAttribute(k, a));
  return w;
}

function encodeGraph(g: OnnxGraph): ProtoWriter {
  const w = new ProtoWriter();
  g.nodes.forEach((n, i) => w.message(1, encodeNode(n, i)));
  w.string(2, g.name);
  for (const t of g.initializers) w.message(5, encodeTensor(t));
  if (g.doc) w.string(10, g.doc);
  for (const v of g.inputs) w.message(11, encodeValueInfo(v));
  for (const v of g.outputs) w.message(12, encodeValueInfo(v));
  return w;
}

/** Serialise a model to the bytes of an `.onnx` file. */
export function encodeModel(model: OnnxModel): Uint8Array {
  const opset = new ProtoWriter().string(1, '').int(2, model.opset);
  return new ProtoWriter()
    .int(1, irVersionForOpset(model.opset)) // ir_version
    .string(2, model.producer ?? 'spoc-studio') // producer_name
    .message(7, encodeGraph(model.graph)) // graph
    .message(8, opset) // opset_import
    .finish();
}
