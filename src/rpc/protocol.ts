/**
 * The one request/response protocol between the page and every worker (docs/workers.md).
 *
 * An API is a map: method name -> {params, result, progress?}. Every request carries an id chosen
 * by the client and every answer echoes it, so overlapping calls never race. The worker answers a
 * call with any number of `progress` messages and then exactly one `result` or `error`; a `cancel`
 * names a call's id: a queued call is dropped, a running one sees its signal aborted. Payloads are
 * structured-clone friendly (plain objects, typed arrays, Blobs); buffers in results are transferred.
 * Pure TypeScript: no DOM beyond structuredClone and a postMessage-shaped port.
 */

/** Method name -> its params, result and (if it reports any) progress types. */
export type RpcApi = Record<string, { params: unknown; result: unknown; progress?: unknown }>;
export type Method<A extends RpcApi> = keyof A & string;
export type ParamsOf<A extends RpcApi, M extends keyof A> = A[M]['params'];
export type ResultOf<A extends RpcApi, M extends keyof A> = A[M]['result'];
export type ProgressOf<A extends RpcApi, M extends keyof A> = A[M] extends { progress: infer P } ? P : never;

/** 'high' (the default) runs before queued 'low' work such as prefetches, on servers with a queue. */
export type Priority = 'high' | 'low';

export type RpcRequest =
  | { kind: 'call'; id: number; method: string; params: unknown; priority?: Priority }
  | { kind: 'cancel'; id: number };

/** An error as it crosses the boundary: Error subclasses do not survive structured clone. */
export interface WireError {
  name: string;
  message: string;
  /** The original error's `code` (a DOMException's, a Node error's, an app error's), if it had one. */
  code?: string | number;
}

export type RpcResponse =
  | { kind: 'result'; id: number; result: unknown }
  | { kind: 'error'; id: number; error: WireError }
  | { kind: 'progress'; id: number; progress: unknown };

/** Error names of the RPC layer itself; APIs add their own. */
export const RPC_ERRORS = {
  abort: 'AbortError',
  badRequest: 'BadRequest',
  destroyed: 'ClientDestroyed',
  workerFailed: 'WorkerFailed',
} as const;

/** What a failed call rejects with: the worker-side error's name, message and code. */
export class RpcError extends Error {
  readonly code?: string | number;
  constructor(name: string, message: string, code?: string | number) {
    super(message);
    this.name = name;
    if (code !== undefined) this.code = code;
  }
}

export function toWireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const code = (e as { code?: unknown }).code;
  const wire: WireError = { name: e.name || 'Error', message: e.message };
  if (typeof code === 'string' || typeof code === 'number') wire.code = code;
  return wire;
}

export const fromWireError = (w: WireError): RpcError => new RpcError(w.name, w.message, w.code);

/**
 * ArrayBuffers that can be transferred from a value: those of typed arrays that own their whole
 * buffer, and bare ArrayBuffers. Views into a larger buffer are left to be copied, since
 * transferring would detach data the sender may still use (a cached embedding, a frame).
 */
export function transferablesOf(value: unknown, limit = 10_000): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const seen = new Set<object>();
  const walk = (v: unknown, depth: number) => {
    if (out.size >= limit || depth > 8 || typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      const b = v.buffer;
      if (b instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === b.byteLength) out.add(b);
      return;
    }
    if (v instanceof ArrayBuffer) {
      out.add(v);
      return;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) walk(child, depth + 1);
  };
  walk(value, 0);
  return [...out];
}
