/**
 * The classical-assist worker (a module worker). OpenCV.js (~11 MB) is imported dynamically on the
 * first request that needs it, so neither the page nor this worker's start-up pays for it until a
 * fallback assist is used.
 */
import { createClassicalHandler } from './handler';
import type { ClassicalRequest } from './protocol';

const handler = createClassicalHandler(async () => {
  const { loadOpenCv } = await import('./opencvModule');
  return loadOpenCv();
});

const port = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ClassicalRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

port.onmessage = (e) => void handler.handle(e.data, (response, transfer) => port.postMessage(response, transfer));
