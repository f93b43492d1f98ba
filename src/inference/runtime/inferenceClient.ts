/**
 * The UI thread's handle on the inference worker: one promise-returning method per protocol
 * method, request ids matched to responses, progress callbacks, cancellation via AbortSignal,
 * and destroy(). It knows nothing about ORT; see createWorkerClient.ts for the real worker and
 * transport.ts for the in-process variant used by tests.
 */
import {
  ERRORS,
  InferenceError,
  transferablesOf,
  type Api,
  type CallRequest,
  type Method,
  type Priority,
  type Progress,
  type Response,
} from './protocol';
import type { Transport } from './transport';

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** 'high' (default) runs before queued 'low' work such as neighbour prefetches. */
  priority?: Priority;
  /**
   * Transfer the params' buffers instead of copying them. Faster for big frames, but the caller's
   * typed arrays become empty (detached) — only for buffers the caller will not read again.
   */
  transfer?: boolean;
}

interface Pending {
  method: Method;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (progress: Progress) => void;
  cleanup(): void;
}

export class InferenceClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private destroyed = false;

  constructor(private readonly transport: Transport) {
    transport.onMessage((m) => this.receive(m));
    transport.onFatal((e) => this.failAll(new InferenceError(ERRORS.workerFailed, e.message)));
  }

  /** Requests still waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  call<M extends Method>(method: M, params: Api[M]['params'], options: CallOptions = {}): Promise<Api[M]['result']> {
    if (this.destroyed) return Promise.reject(new InferenceError(ERRORS.destroyed, 'the inference client was destroyed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new InferenceError(ERRORS.abort, `${method} aborted before it was sent`));
    const id = this.nextId++;
    return new Promise<Api[M]['result']>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        this.settle(id)?.reject(new InferenceError(ERRORS.abort, `${method} cancelled`));
        this.transport.send({ id: this.nextId++, method: 'cancel', targetId: id }, []);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method,
        resolve: resolve as (v: unknown) => void,
        reject,
        onProgress: options.onProgress,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      const request = { id, method, params, ...(options.priority ? { priority: options.priority } : {}) } as CallRequest;
      try {
        this.transport.send(request, options.transfer ? transferablesOf(params) : []);
      } catch (e) {
        this.settle(id)?.reject(new InferenceError(ERRORS.badRequest, `${method}: cannot send (${e instanceof Error ? e.message : String(e)})`));
      }
    });
  }

  init(params: Api['init']['params'] = {}, options?: CallOptions) {
    return this.call('init', params, options);
  }

  load(params: Api['load']['params'], options?: CallOptions) {
    return this.call('load', params, options);
  }

  unload(modelId: string, options?: CallOptions) {
    return this.call('unload', { modelId }, options);
  }

  selfTest(params: Api['selfTest']['params'], options?: CallOptions) {
    return this.call('selfTest', params, options);
  }

  samEncode(params: Api['samEncode']['params'], options?: CallOptions) {
    return this.call('samEncode', params, options);
  }

  samDecode(params: Api['samDecode']['params'], options?: CallOptions) {
    return this.call('samDecode', params, options);
  }

  samDecodeGrid(params: Api['samDecodeGrid']['params'], options?: CallOptions) {
    return this.call('samDecodeGrid', params, options);
  }

  clipEmbedImages(params: Api['clipEmbedImages']['params'], options?: CallOptions) {
    return this.call('clipEmbedImages', params, options);
  }

  clipEmbedTexts(params: Api['clipEmbedTexts']['params'], options?: CallOptions) {
    return this.call('clipEmbedTexts', params, options);
  }

  evictEmbeddings(params: Api['evictEmbeddings']['params'] = {}, options?: CallOptions) {
    return this.call('evictEmbeddings', params, options);
  }

  stats(options?: CallOptions) {
    return this.call('stats', {}, options);
  }

  /** Rejects everything pending and stops the worker. Further calls reject at once. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.failAll(new InferenceError(ERRORS.destroyed, 'the inference client was destroyed'));
    this.transport.close();
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    p.cleanup();
    return p;
  }

  private receive(m: Response): void {
    // Late answers to cancelled or destroyed calls are dropped here.
    if (!this.pending.has(m.id)) return;
    if (m.kind === 'progress') {
      this.pending.get(m.id)?.onProgress?.(m.progress);
    } else if (m.kind === 'result') {
      this.settle(m.id)?.resolve(m.result);
    } else {
      this.settle(m.id)?.reject(new InferenceError(m.error.name, m.error.message));
    }
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}
