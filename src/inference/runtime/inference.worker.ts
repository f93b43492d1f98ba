/**
 * The inference worker (a module worker). All logic is in dispatcher.ts; this file only connects
 * it to the worker's message port (the app's worker RPC) and to the browser's ORT loader and
 * environment.
 */
import { createDispatcher } from './dispatcher';
import { loadBrowserOrt } from './ortBrowser';
import { serveOnPort } from '../../rpc/transport';

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

serveOnPort(dispatcher);
