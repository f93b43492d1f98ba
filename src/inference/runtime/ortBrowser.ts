/**
 * Loads onnxruntime-web in the browser worker. Only this file uses Vite's `?url` imports (so Node
 * tests never import it). We import the bundle that matches the backend — the JSEP bundle
 * (WebGPU + WASM, 28 MB of wasm) only when a WebGPU adapter exists, else the CPU-only bundle
 * (14 MB) — and point env.wasm.wasmPaths at ORT's own runtime files: without that, multi-threaded
 * WASM hangs in production builds because the bundled glue cannot find itself to start its
 * thread workers. Every env.wasm option is set before the first session is created.
 */
import jsepMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.mjs?url';
import jsepWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.wasm?url';
import cpuMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import cpuWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import type { Backend } from './backend';
import type { Ort } from './ortSession';

export async function loadBrowserOrt(backend: Backend, threads: number): Promise<Ort> {
  const ort: Ort = backend === 'webgpu' ? await import('onnxruntime-web') : ((await import('onnxruntime-web/wasm')) as unknown as Ort);
  ort.env.wasm.wasmPaths = backend === 'webgpu' ? { mjs: jsepMjsUrl, wasm: jsepWasmUrl } : { mjs: cpuMjsUrl, wasm: cpuWasmUrl };
  ort.env.wasm.numThreads = threads;
  // We already are in a worker; ORT's own proxy worker would only add a hop.
  ort.env.wasm.proxy = false;
  return ort;
}
