/**
 * The classical-assist worker (a module worker). OpenCV.js (~11 MB) is imported dynamically on the
 * first request that needs it, so neither the page nor this worker's start-up pays for it until a
 * fallback assist is used.
 */
import { createClassicalHandler } from './handler';
import { serveOnPort } from '../../rpc/transport';

const handler = createClassicalHandler(async () => {
  const { loadOpenCv } = await import('./opencvModule');
  return loadOpenCv();
});

serveOnPort(handler);
