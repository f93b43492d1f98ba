/**
 * How the client reaches a dispatcher: a Web Worker in the app, or the dispatcher itself in the
 * same thread for tests. The in-process transport structured-clones every message both ways, with
 * the same transfer lists, so anything that would not survive postMessage fails in tests too.
 */
import type { Dispatcher } from './dispatcher';
import type { Request, Response } from './protocol';

export interface Transport {
  send(message: Request, transfer: ArrayBuffer[]): void;
  /** Registers the single receiver of responses. */
  onMessage(handler: (message: Response) => void): void;
  /** Registers the receiver of fatal errors (the worker script failed, crashed, or cannot clone). */
  onFatal(handler: (error: Error) => void): void;
  close(): void;
}

export function workerTransport(worker: Worker): Transport {
  let fatal: (error: Error) => void = () => undefined;
  return {
    send: (message, transfer) => worker.postMessage(message, transfer),
    onMessage(handler) {
      worker.onmessage = (e: MessageEvent<Response>) => handler(e.data);
      worker.onmessageerror = () => fatal(new Error('a message from the inference worker could not be deserialised'));
    },
    onFatal(handler) {
      fatal = handler;
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        handler(new Error(`inference worker failed: ${e.message || 'script error'}`));
      };
    },
    close: () => worker.terminate(),
  };
}

export function inProcessTransport(dispatcher: Dispatcher): Transport {
  let receive: (message: Response) => void = () => undefined;
  let closed = false;
  return {
    send(message, transfer) {
      if (closed) return;
      const cloned = structuredClone(message, { transfer });
      // Deliver asynchronously, as a worker would.
      queueMicrotask(() =>
        dispatcher.handle(cloned, (response, responseTransfer) => {
          if (!closed) receive(structuredClone(response, { transfer: responseTransfer }));
        }),
      );
    },
    onMessage(handler) {
      receive = handler;
    },
    onFatal() {
      // Nothing can kill an in-process dispatcher short of an exception, which reaches the caller.
    },
    close() {
      closed = true;
      void dispatcher.dispose();
    },
  };
}
