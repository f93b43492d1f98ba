/**
 * Golden self-tests: a model is run on a fixed, generated input and a few numbers of its output
 * (shape, mean, values at sample positions) are compared with those stored in the manifest. This
 * catches a backend computing wrong results (a WebGPU kernel bug, a broken quantised file) before
 * an annotator trusts its masks. Goldens are small by design — a summary, never whole outputs.
 */
import { elementCount, type TensorData, type TensorType } from '../tensor';
import type { ModelSession } from './session';

export type GoldenFill =
  | { kind: 'constant'; value: number }
  /** Repeated cyclically to fill the tensor. */
  | { kind: 'values'; values: number[] }
  /** offset + amplitude * sin(frequency * i), i = flat index. */
  | { kind: 'wave'; amplitude: number; offset: number; frequency: number };

export interface GoldenInput {
  type: Extract<TensorType, 'float32' | 'int64'>;
  dims: number[];
  fill: GoldenFill;
}

export interface GoldenOutput {
  dims: number[];
  mean: number;
  /** [flat index, value] pairs. */
  samples: [number, number][];
}

export interface GoldenSpec {
  inputs: Record<string, GoldenInput>;
  outputs: Record<string, GoldenOutput>;
  /** |got - want| <= abs + rel * |want|. Default abs 1e-4, rel 1e-3. */
  tolerance?: { abs: number; rel: number };
}

/** Largest generated input we accept (elements); keeps a hostile manifest from exhausting memory. */
export const GOLDEN_MAX_ELEMENTS = 1 << 24;

function fillValue(fill: GoldenFill, i: number): number {
  switch (fill.kind) {
    case 'constant':
      return fill.value;
    case 'values':
      return fill.values[i % fill.values.length];
    case 'wave':
      return fill.offset + fill.amplitude * Math.sin(fill.frequency * i);
  }
}

export function goldenInputs(spec: GoldenSpec): Record<string, TensorData> {
  const feeds: Record<string, TensorData> = {};
  for (const [name, input] of Object.entries(spec.inputs)) {
    const n = elementCount(input.dims);
    if (n > GOLDEN_MAX_ELEMENTS) throw new RangeError(`self-test input ${name} has ${n} elements (limit ${GOLDEN_MAX_ELEMENTS})`);
    if (input.type === 'int64') {
      const data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) data[i] = BigInt(Math.round(fillValue(input.fill, i)));
      feeds[name] = { type: 'int64', dims: input.dims, data };
    } else {
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = fillValue(input.fill, i);
      feeds[name] = { type: 'float32', dims: input.dims, data };
    }
  }
  return feeds;
}

function asNumbers(t: TensorData): ArrayLike<number> {
  return t.data instanceof BigInt64Array ? Array.from(t.data, Number) : t.data;
}

/** The golden summary of one output: dims, mean, and `sampleCount` evenly spaced values. */
export function summariseOutput(t: TensorData, sampleCount = 16): GoldenOutput {
  const values = asNumbers(t);
  const n = values.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const samples: [number, number][] = [];
  const k = Math.min(sampleCount, n);
  for (let s = 0; s < k; s++) {
    const idx = k === 1 ? 0 : Math.round((s * (n - 1)) / (k - 1));
    samples.push([idx, values[idx]]);
  }
  return { dims: [...t.dims], mean: n ? sum / n : 0, samples };
}

export interface SelfTestResult {
  ok: boolean;
  /** Human-readable problems, empty when ok. */
  failures: string[];
  /** Largest absolute difference seen over means and samples. */
  maxAbsError: number;
  ms: number;
}

export function compareWithGolden(spec: GoldenSpec, outputs: Record<string, TensorData>): Omit<SelfTestResult, 'ms'> {
  const tol = spec.tolerance ?? { abs: 1e-4, rel: 1e-3 };
  const failures: string[] = [];
  let maxAbsError = 0;
  const close = (got: number, want: number) => {
    const err = Math.abs(got - want);
    if (Number.isFinite(err)) maxAbsError = Math.max(maxAbsError, err);
    return err <= tol.abs + tol.rel * Math.abs(want);
  };
  for (const [name, want] of Object.entries(spec.outputs)) {
    const t = outputs[name];
    if (!t) {
      failures.push(`${name}: missing from the outputs`);
      continue;
    }
    if (t.dims.length !== want.dims.length || t.dims.some((d, i) => d !== want.dims[i])) {
      failures.push(`${name}: shape [${t.dims.join(',')}], expected [${want.dims.join(',')}]`);
      continue;
    }
    const got = summariseOutput(t, 0);
    if (!close(got.mean, want.mean)) failures.push(`${name}: mean ${got.mean}, expected ${want.mean}`);
    const values = asNumbers(t);
    let bad = 0;
    for (const [idx, v] of want.samples) {
      if (idx < 0 || idx >= values.length || !close(values[idx], v)) {
        if (bad++ < 3) failures.push(`${name}[${idx}]: ${values[idx]}, expected ${v}`);
      }
    }
    if (bad > 3) failures.push(`${name}: ${bad - 3} more sample(s) differ`);
  }
  return { ok: failures.length === 0, failures, maxAbsError };
}

export async function runSelfTest(session: ModelSession, spec: GoldenSpec): Promise<SelfTestResult> {
  const t0 = performance.now();
  let outputs: Record<string, TensorData>;
  try {
    outputs = await session.run(goldenInputs(spec), Object.keys(spec.outputs));
  } catch (e) {
    return { ok: false, failures: [`run failed: ${e instanceof Error ? e.message : String(e)}`], maxAbsError: Infinity, ms: performance.now() - t0 };
  }
  return { ...compareWithGolden(spec, outputs), ms: performance.now() - t0 };
}
