/**
 * Backend choice, as pure functions over what the environment offers (so tests can pass a fake
 * environment): WebGPU when navigator.gpu yields an adapter, else WASM; WASM threads only when the
 * page is cross-origin isolated (SharedArrayBuffer needs COOP/COEP).
 */
export type Backend = 'webgpu' | 'wasm';
export type BackendPreference = 'auto' | Backend;

export interface EnvironmentProbe {
  /** navigator.gpu, when present. */
  gpu?: { requestAdapter(): Promise<unknown> } | undefined;
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
}

export interface BackendChoice {
  backend: Backend;
  /** Why, in words the UI can show. */
  reason: string;
}

export async function chooseBackend(env: EnvironmentProbe, preference: BackendPreference = 'auto'): Promise<BackendChoice> {
  if (preference === 'wasm') return { backend: 'wasm', reason: 'WASM requested' };
  if (!env.gpu) return { backend: 'wasm', reason: 'WebGPU is not available in this browser' };
  let adapter: unknown;
  try {
    adapter = await env.gpu.requestAdapter();
  } catch (e) {
    return { backend: 'wasm', reason: `WebGPU adapter request failed (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!adapter) return { backend: 'wasm', reason: 'WebGPU offers no adapter (no usable GPU)' };
  return { backend: 'webgpu', reason: preference === 'webgpu' ? 'WebGPU requested' : 'WebGPU adapter found' };
}

/**
 * WASM thread count: 1 unless cross-origin isolated; then the core count, capped at 4 (ORT's own
 * default cap; more threads rarely help these models and cost memory per thread).
 */
export function wasmThreads(env: EnvironmentProbe, requested?: number): number {
  if (!env.crossOriginIsolated) return 1;
  const cores = Math.max(1, Math.floor(env.hardwareConcurrency || 1));
  const n = requested ?? Math.min(4, cores);
  return Math.max(1, Math.min(n, cores));
}
