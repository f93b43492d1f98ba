/**
 * What an adapter needs from a loaded model: its signature and a run() over plain tensors. The ORT
 * implementation lives in runtime/ortSession.ts; adapters never import onnxruntime, so they can be
 * driven by any runtime (and by fakes in tests).
 */
import type { TensorData } from '../tensor';

export interface ValueMeta {
  name: string;
  /** ORT tensor type ("float32", "int64", ...) when known. */
  type?: string;
  /** Dims: numbers for fixed sizes, strings for symbolic ones; absent when unknown. */
  shape?: readonly (number | string)[];
}

export interface ModelSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata?: readonly ValueMeta[];
  readonly outputMetadata?: readonly ValueMeta[];
  /** Which execution provider the session actually uses ("webgpu" or "wasm"). */
  readonly backend?: string;
  run(feeds: Record<string, TensorData>, outputs?: readonly string[]): Promise<Record<string, TensorData>>;
  release?(): Promise<void>;
}

/** The declared shape of an input, if the model file states one. */
export function inputShape(session: ModelSession, name: string): readonly (number | string)[] | undefined {
  return session.inputMetadata?.find((m) => m.name === name)?.shape;
}

/** True when the model declares the batch (first) dim as exactly 1, so inputs must go one at a time. */
export function fixedBatchOfOne(session: ModelSession, name: string): boolean {
  const shape = inputShape(session, name);
  return shape !== undefined && shape.length > 0 && shape[0] === 1;
}
