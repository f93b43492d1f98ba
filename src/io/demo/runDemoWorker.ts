/** One demo worker job over the app's worker RPC; the worker is ended when the job ends (or is cancelled). */
import { RpcClient } from '../../rpc/client';
import { RPC_ERRORS } from '../../rpc/protocol';
import { workerTransport } from '../../rpc/transport';
import type { DemoApi, DemoClipFrames, DemoJob, DemoProgress, DemoVideoJob } from './api';

type OnProgress = (done: number, total: number) => void;

async function run<M extends keyof DemoApi>(method: M, job: DemoApi[M]['params'], onProgress?: OnProgress, signal?: AbortSignal): Promise<DemoApi[M]['result']> {
  const worker = new Worker(new URL('./demo.worker.ts', import.meta.url), { type: 'module' });
  const demo = new RpcClient<DemoApi>(workerTransport(worker, 'demo'), 'demo');
  try {
    return await demo.call(method, job, { signal, onProgress: (p) => onProgress?.((p as DemoProgress).done, (p as DemoProgress).total) });
  } catch (e) {
    if (!(e instanceof Error) || e.name === RPC_ERRORS.abort) throw e;
    throw new Error(e.name === RPC_ERRORS.workerFailed ? `demo generator crashed: ${e.message}` : `demo generator failed: ${e.message}`, { cause: e });
  } finally {
    demo.destroy();
  }
}

export function renderDemoFrames(job: DemoJob, onProgress?: OnProgress, signal?: AbortSignal): Promise<DemoClipFrames> {
  return run('frames', job, onProgress, signal);
}

export function encodeDemoVideoInWorker(job: DemoVideoJob, onProgress?: OnProgress, signal?: AbortSignal): Promise<Blob> {
  return run('video', job, onProgress, signal);
}
