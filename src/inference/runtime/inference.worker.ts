/**
 * The inference worker (a module worker). All logic is in dispatcher.ts; this file only connects
 * it to the worker's message port and to the browser's ORT loader and environment.
 */
import { createDispatcher } from './dispatcher';
import { loadBrowserOrt } from './ortBrowser';
import type { Request } from './protocol';

interface GpuNavigator {
  gpu?: { requestAdapter(): Promise<unknown> };
  hardwareConcurrency: number;
}

const dispatcher = createDispatcher({
  loadOrt: loadBrowserOrt,
  probe: () => {
    const nav = navigator as unknown as GpuNavigator;
    return { gpu: nav.gpu, crossOriginIsolated: globalThis.crossOriginIsolated === true, hardwareConcurrency: nav.hardwareConcurrency };
  },
});

const port = globalThis as unknown as {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

port.onmessage = (e) => dispatcher.handle(e.data, (response, transfer) => port.postMessage(response, transfer));
