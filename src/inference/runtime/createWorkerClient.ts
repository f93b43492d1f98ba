/**
 * Starts the inference worker and returns its client. Kept apart from inferenceClient.ts so that
 * importing the client (in tests, in Node) never references the worker bundle.
 */
import { InferenceClient } from './inferenceClient';
import { workerTransport } from '../../rpc/transport';

export function createWorkerClient(): InferenceClient {
  const worker = new Worker(new URL('./inference.worker.ts', import.meta.url), { type: 'module', name: 'inference' });
  return new InferenceClient(workerTransport(worker, 'inference'));
}
