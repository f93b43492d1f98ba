/**
 * How a client reaches a server: a Web Worker in the app, or the server itself in the same thread
 * for tests. The in-process transport structured-clones every message both ways with the same
 * transfer lists, so anything that would not survive postMessage fails in tests too.
 */
import type { RpcRequest, RpcResponse } from './protocol';
import type { RpcServer } from './server';

export interface Transport {
  send(message: RpcRequest, transfer: ArrayBuffer[]): void;
  /** Registers the single receiver of responses. */
  onMessage(handler: (message: RpcResponse) => void): void;
  /** Registers the receiver of fatal errors (the worker script failed, crashed, or cannot clone). */
  onFatal(handler: (error: Error) => void): void;
  close(): void;
}

/** `name` says which worker failed in fatal errors ("inference worker failed: …"). */
export function workerTransport(worker: Worker, name: string): Transport {
  let fatal: (error: Error) => void = () => undefined;
  return {
    send: (message, transfer) => worker.postMessage(message, transfer),
    onMessage(handler) {
      worker.onmessage = (e: MessageEvent<RpcResponse>) => handler(e.data);
      worker.onmessageerror = () => fatal(new Error(`a message from the ${name} worker could not be deserialised`));
    },
    onFatal(handler) {
      fatal = handler;
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        handler(new Error(`${name} worker failed: ${e.message || 'script error'}`));
      };
    },
    close: () => worker.terminate(),
  };
}

/** A server in this thread, answering asynchronously as a worker would. `onClose` releases its resources. */
export function inProcessTransport(server: Pick<RpcServer, 'handle'>, onClose?: () => void): Transport {
  let receive: (message: RpcResponse) => void = () => undefined;
  let closed = false;
  return {
    send(message, transfer) {
      if (closed) return;
      const cloned = structuredClone(message, { transfer });
      queueMicrotask(() =>
        server.handle(cloned, (response, responseTransfer) => {
          if (!closed) receive(structuredClone(response, { transfer: responseTransfer }));
        }),
      );
    },
    onMessage(handler) {
      receive = handler;
    },
    onFatal() {
      // Nothing can kill an in-process server short of an exception, which reaches the caller.
    },
    close() {
      closed = true;
      onClose?.();
    },
  };
}

/** Inside a worker: answers the requests arriving on its global scope with `server`. */
export function serveOnPort(server: Pick<RpcServer, 'handle'>, port: unknown = globalThis): void {
  const scope = port as {
    onmessage: ((e: MessageEvent<RpcRequest>) => void) | null;
    postMessage(message: unknown, transfer: Transferable[]): void;
  };
  scope.onmessage = (e) => server.handle(e.data, (response, transfer) => scope.postMessage(response, transfer));
}
