/** Promise wrapper around one demo worker job; the worker is ended when the job ends. */
import type { DemoClipFrames, DemoRequest, DemoResponse } from './protocol';

type Job = DemoRequest extends infer R ? (R extends DemoRequest ? Omit<R, 'id'> : never) : never;

let nextId = 1;

function run<T>(job: Job, pick: (r: DemoResponse) => T | undefined, onProgress?: (done: number, total: number) => void): Promise<T> {
  const worker = new Worker(new URL('./demo.worker.ts', import.meta.url), { type: 'module' });
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(`demo generator crashed: ${e.message}`));
    };
    worker.onmessage = (e: MessageEvent<DemoResponse>) => {
      const r = e.data;
      if (r.id !== id) return;
      if (r.type === 'progress') return onProgress?.(r.done, r.total);
      worker.terminate();
      if (r.type === 'error') return reject(new Error(`demo generator failed: ${r.message}`));
      const value = pick(r);
      if (value === undefined) reject(new Error(`demo worker answered ${r.type}`));
      else resolve(value);
    };
    worker.postMessage({ ...job, id } as DemoRequest);
  });
}

export function renderDemoFrames(job: Extract<Job, { type: 'frames' }>, onProgress?: (done: number, total: number) => void): Promise<DemoClipFrames> {
  return run(job, (r) => (r.type === 'frames' ? r.clip : undefined), onProgress);
}

export function encodeDemoVideoInWorker(job: Extract<Job, { type: 'video' }>, onProgress?: (done: number, total: number) => void): Promise<Blob> {
  return run(job, (r) => (r.type === 'video' ? r.video : undefined), onProgress);
}
