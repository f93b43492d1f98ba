/**
 * Tensors as plain data: {type, dims, data}. This is both what adapters exchange with a model
 * session and what crosses postMessage — ORT's Tensor class does not survive structured cloning,
 * so nothing outside runtime/ortSession.ts ever sees an ort.Tensor.
 */

export type TensorType = 'float32' | 'int64' | 'int32' | 'uint8' | 'bool';

export type TensorArray = Float32Array | BigInt64Array | Int32Array | Uint8Array;

export interface TensorData {
  type: TensorType;
  dims: readonly number[];
  data: TensorArray;
}

export function elementCount(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 0) throw new RangeError(`invalid tensor dim ${d} in [${dims.join(',')}]`);
    n *= d;
  }
  return n;
}

const ARRAY_OF: Record<TensorType, new (n: number) => TensorArray> = {
  float32: Float32Array,
  int64: BigInt64Array,
  int32: Int32Array,
  uint8: Uint8Array,
  bool: Uint8Array,
};

/** Checks that data matches type and dims; throws a RangeError naming the tensor otherwise. */
export function checkTensor(t: TensorData, name = 'tensor'): TensorData {
  const Ctor = ARRAY_OF[t.type];
  if (!Ctor) throw new RangeError(`${name}: unsupported tensor type ${String(t.type)}`);
  if (!(t.data instanceof Ctor)) throw new RangeError(`${name}: ${t.type} data must be a ${Ctor.name}`);
  const n = elementCount(t.dims);
  if (t.data.length !== n) throw new RangeError(`${name}: dims [${t.dims.join(',')}] need ${n} values, got ${t.data.length}`);
  return t;
}

export function f32(dims: readonly number[], data: Float32Array | readonly number[]): TensorData {
  return checkTensor({ type: 'float32', dims, data: data instanceof Float32Array ? data : Float32Array.from(data) });
}

export function i64(dims: readonly number[], data: BigInt64Array | readonly number[]): TensorData {
  const arr = data instanceof BigInt64Array ? data : BigInt64Array.from(data, (v) => BigInt(v));
  return checkTensor({ type: 'int64', dims, data: arr });
}

/** A float32 tensor's data, or a clear error when a model returned something else. */
export function floatData(t: TensorData | undefined, name: string): Float32Array {
  if (!t) throw new Error(`the model returned no output "${name}"`);
  if (!(t.data instanceof Float32Array)) throw new Error(`output "${name}" is ${t.type}, expected float32`);
  return t.data;
}
