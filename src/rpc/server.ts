/**
 * The worker side of the RPC (docs/workers.md): a table of handlers, one per method, answering
 * requests through a `post` callback. Free of any worker API, so tests run it in-process
 * (transport.ts) and a worker connects it to its port with `serveOnPort`.
 *
 * Each call gets a context: its own AbortSignal (aborted by the client's cancel), `checkpoint()`
 * to stop there if cancelled, and `progress()` to report. With `queue: true` calls run one at a
 * time by priority (jobQueue.ts), except the methods named `immediate`; a call cancelled while
 * queued never runs.
 */
import { JobQueue } from './jobQueue';
import {
  RPC_ERRORS,
  RpcError,
  toWireError,
  transferablesOf,
  type Method,
  type ParamsOf,
  type ProgressOf,
  type ResultOf,
  type RpcApi,
  type RpcRequest,
  type RpcResponse,
} from './protocol';

export interface RpcContext<P = unknown> {
  readonly id: number;
  /** Aborted when the client cancels this call. */
  readonly signal: AbortSignal;
  /** Throws an AbortError if the call was cancelled: put one between steps of long work. */
  checkpoint(): void;
  /** Sends a progress event; its whole-buffer typed arrays are transferred (or those listed). */
  progress(progress: P, transfer?: ArrayBuffer[]): void;
}

export type RpcHandlers<A extends RpcApi> = {
  [M in Method<A>]: (params: ParamsOf<A, M>, ctx: RpcContext<ProgressOf<A, M>>) => Promise<ResultOf<A, M>> | ResultOf<A, M>;
};

export interface RpcServerOptions<A extends RpcApi> {
  /** Run calls one at a time, high priority first (default false: each call starts on arrival). */
  queue?: boolean;
  /** With a queue: methods answered at once, outside it (they must not touch what the queue guards). */
  immediate?: readonly Method<A>[];
}

export type Post = (response: RpcResponse, transfer: ArrayBuffer[]) => void;

export interface RpcServer {
  handle(request: RpcRequest, post: Post): void;
  /** Calls waiting in the queue (not counting the running one). */
  readonly queued: number;
}

export function createRpcServer<A extends RpcApi>(handlers: RpcHandlers<A>, options: RpcServerOptions<A> = {}): RpcServer {
  const queue = options.queue ? new JobQueue() : null;
  const immediate = new Set<string>(options.immediate ?? []);
  const running = new Map<number, AbortController>();

  function handle(request: RpcRequest, post: Post): void {
    const id = request?.id;
    if (!Number.isSafeInteger(id)) return; // nothing to answer to
    if (request.kind === 'cancel') {
      running.get(id)?.abort();
      queue?.remove(id, new RpcError(RPC_ERRORS.abort, 'cancelled before it started'));
      return;
    }
    const reply = (result: unknown) => post({ kind: 'result', id, result }, transferablesOf(result));
    const fail = (e: unknown) => post({ kind: 'error', id, error: toWireError(e) }, []);
    const method = request.method;
    const handler = Object.prototype.hasOwnProperty.call(handlers, method) ? (handlers as Record<string, RpcHandlers<RpcApi>[string]>)[method] : undefined;
    if (typeof handler !== 'function') {
      fail(new RpcError(RPC_ERRORS.badRequest, `unknown method ${String(method)}`));
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const ctx: RpcContext = {
      id,
      signal: controller.signal,
      checkpoint() {
        if (controller.signal.aborted) throw new RpcError(RPC_ERRORS.abort, 'cancelled');
      },
      progress: (progress, transfer) => {
        if (!controller.signal.aborted) post({ kind: 'progress', id, progress }, transfer ?? transferablesOf(progress));
      },
    };
    const run = async () => handler(request.params, ctx);
    const done = !queue || immediate.has(method) ? run() : queue.push(id, request.priority ?? 'high', async () => (ctx.checkpoint(), run()));
    done.then(reply, fail).finally(() => running.delete(id));
  }

  return {
    handle,
    get queued() {
      return queue?.pending ?? 0;
    },
  };
}
