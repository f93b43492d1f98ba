/**
 * The one place that touches onnxruntime's InferenceSession and Tensor classes: it turns plain
 * {type, dims, data} tensors into ort.Tensors and back, and creates sessions with a WebGPU -> WASM
 * fallback. Everything else in inference/ sees only ModelSession.
 */
import type * as OrtNamespace from 'onnxruntime-web';
import type { ModelSession, ValueMeta } from '../models/session';
import { checkTensor, type TensorData, type TensorType } from '../tensor';
import type { Backend } from './backend';

export type Ort = typeof OrtNamespace;

const TYPES: ReadonlySet<string> = new Set<TensorType>(['float32', 'int64', 'int32', 'uint8', 'bool']);

function meta(list: readonly OrtNamespace.InferenceSession.ValueMetadata[] | undefined): ValueMeta[] | undefined {
  if (!list) return undefined;
  return list.map((m) => (m.isTensor ? { name: m.name, type: m.type, shape: [...m.shape] } : { name: m.name }));
}

async function toPlain(name: string, v: OrtNamespace.Tensor): Promise<TensorData> {
  if (!TYPES.has(v.type)) throw new Error(`output "${name}" has unsupported type ${v.type}`);
  // GPU-resident outputs (only if a caller asked for them) must be downloaded first.
  const data = v.location === 'cpu' || v.location === 'cpu-pinned' ? v.data : await v.getData(true);
  return { type: v.type as TensorType, dims: [...v.dims], data: data as TensorData['data'] };
}

export function wrapSession(ort: Ort, session: OrtNamespace.InferenceSession, backend: Backend): ModelSession {
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    inputMetadata: meta(session.inputMetadata),
    outputMetadata: meta(session.outputMetadata),
    backend,
    async run(feeds, outputs) {
      const ortFeeds: Record<string, OrtNamespace.Tensor> = {};
      for (const [name, t] of Object.entries(feeds)) {
        checkTensor(t, name);
        ortFeeds[name] = new ort.Tensor(t.type, t.data as never, t.dims);
      }
      const result = outputs ? await session.run(ortFeeds, [...outputs]) : await session.run(ortFeeds);
      const out: Record<string, TensorData> = {};
      for (const [name, v] of Object.entries(result)) out[name] = await toPlain(name, v as OrtNamespace.Tensor);
      return out;
    },
    release: () => session.release(),
  };
}

export interface CreatedSession {
  session: ModelSession;
  backend: Backend;
  /** Set when WebGPU was wanted but the session had to fall back to WASM. */
  fallbackReason?: string;
  /** The model file, kept for WebGPU sessions so a failed self-test can retry on WASM. */
  bytes?: Uint8Array;
}

/**
 * Creates a session on `backend`; if WebGPU fails (unsupported operator, out of memory, driver
 * trouble) retries on WASM and says why.
 */
export async function createSession(ort: Ort, bytes: Uint8Array, backend: Backend): Promise<CreatedSession> {
  const options = (ep: Backend): OrtNamespace.InferenceSession.SessionOptions => ({
    executionProviders: [ep],
    graphOptimizationLevel: 'all',
  });
  if (backend === 'webgpu') {
    try {
      const s = await ort.InferenceSession.create(bytes, options('webgpu'));
      return { session: wrapSession(ort, s, 'webgpu'), backend: 'webgpu', bytes };
    } catch (e) {
      const s = await ort.InferenceSession.create(bytes, options('wasm'));
      return { session: wrapSession(ort, s, 'wasm'), backend: 'wasm', fallbackReason: e instanceof Error ? e.message : String(e) };
    }
  }
  const s = await ort.InferenceSession.create(bytes, options('wasm'));
  return { session: wrapSession(ort, s, 'wasm'), backend: 'wasm' };
}
