/**
 * The page's side of the RPC (docs/workers.md): one promise per call, request ids matched to
 * answers, progress callbacks, cancellation through an AbortSignal, and destroy(). It knows nothing
 * about what the worker does; transport.ts gives it a real worker or an in-process server.
 */
import {
  RPC_ERRORS,
  RpcError,
  fromWireError,
  transferablesOf,
  type Method,
  type ParamsOf,
  type Priority,
  type ProgressOf,
  type ResultOf,
  type RpcApi,
  type RpcResponse,
} from './protocol';
import type { Transport } from './transport';

export interface RpcCallOptions<P = unknown> {
  /** Aborting rejects the call at once with an AbortError and tells the worker to stop it. */
  signal?: AbortSignal;
  /** Progress events of this call, in the order the worker sent them. */
  onProgress?: (progress: P) => void;
  /** On servers with a queue: 'high' (default) runs before queued 'low' work. */
  priority?: Priority;
  /**
   * Transfer the params' buffers instead of copying them (true: every whole-buffer typed array;
   * or a list). Faster for big frames, but the caller's arrays become empty (detached) — only for
   * buffers the caller will not read again.
   */
  transfer?: boolean | ArrayBuffer[];
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (progress: unknown) => void;
  cleanup(): void;
}

export class RpcClient<A extends RpcApi> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private destroyed = false;
  private fatal: Error | null = null;

  /** `name` says whose client this is in error messages ("the inference client was destroyed"). */
  constructor(
    private readonly transport: Transport,
    private readonly name = 'worker',
  ) {
    transport.onMessage((m) => this.receive(m));
    transport.onFatal((e) => {
      this.fatal = new RpcError(RPC_ERRORS.workerFailed, e.message);
      this.failAll(this.fatal);
    });
  }

  /** Calls still waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** The worker's fatal error (it crashed or sent what cannot be read), or null. */
  get failure(): Error | null {
    return this.fatal;
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  call<M extends Method<A>>(method: M, params: ParamsOf<A, M>, options: RpcCallOptions<ProgressOf<A, M>> = {}): Promise<ResultOf<A, M>> {
    if (this.destroyed) return Promise.reject(this.destroyedError());
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new RpcError(RPC_ERRORS.abort, `${method} aborted before it was sent`));
    const id = this.nextId++;
    return new Promise<ResultOf<A, M>>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        this.settle(id)?.reject(new RpcError(RPC_ERRORS.abort, `${method} cancelled`));
        this.transport.send({ kind: 'cancel', id }, []);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: resolve as (v: unknown) => void,
        reject,
        onProgress: options.onProgress as ((p: unknown) => void) | undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      const transfer = options.transfer === true ? transferablesOf(params) : options.transfer || [];
      try {
        this.transport.send({ kind: 'call', id, method, params, ...(options.priority ? { priority: options.priority } : {}) }, transfer);
      } catch (e) {
        this.settle(id)?.reject(new RpcError(RPC_ERRORS.badRequest, `${method}: cannot send (${e instanceof Error ? e.message : String(e)})`));
      }
    });
  }

  /** Rejects everything pending and ends the worker. Further calls reject at once. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.failAll(this.destroyedError());
    this.transport.close();
  }

  private destroyedError(): RpcError {
    return new RpcError(RPC_ERRORS.destroyed, `the ${this.name} client was destroyed`);
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    p.cleanup();
    return p;
  }

  private receive(m: RpcResponse): void {
    // Late answers to cancelled or destroyed calls are dropped here.
    if (!this.pending.has(m.id)) return;
    if (m.kind === 'progress') this.pending.get(m.id)?.onProgress?.(m.progress);
    else if (m.kind === 'result') this.settle(m.id)?.resolve(m.result);
    else this.settle(m.id)?.reject(fromWireError(m.error));
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}
