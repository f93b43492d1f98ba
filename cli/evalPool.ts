/**
 * `spoc-studio eval` on every core: clips are handed to worker threads (cli/evalWorker.ts), one clip
 * per worker at a time, each worker running the same evaluateVideo as the single-threaded path. The
 * results come back as plain data and are put back in clip order with their warnings, so the
 * output is the same whatever the number of workers; on bad input the error of the first failing
 * clip (in clip order) is the one reported, as without workers. docs/cli.md "Memory and speed".
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { packageFile } from '../server/packageFile';
import type { ClipResult } from './evaluate';
import { DataError } from './io';
import type { MaskSet, MaskVideo } from './layout';

export interface ClipJob {
  video: MaskVideo;
  predVideo: MaskVideo | null;
  taxonomy: boolean;
  boundary: boolean;
}

/** A MaskSet without its InputTree (a class instance); the worker opens the folder again. */
export type PlainMaskSet = Omit<MaskSet, 'tree'>;

export type WorkerRequest = { gt: PlainMaskSet; pred: PlainMaskSet } | { index: number; job: ClipJob };
export type WorkerMessage =
  | { tick: true }
  | { index: number; clip: ClipResult | null; warnings: string[] }
  | { index: number; error: { message: string; data: boolean; stack?: string } };

export interface ClipOutcome {
  clip: ClipResult | null;
  warnings: string[];
}

const plain = (set: MaskSet): PlainMaskSet => {
  const { tree: _tree, ...rest } = set;
  return rest;
};

/**
 * The worker's entry: the bundle's eval-worker.mjs in the built CLI; from the sources, a small
 * .mjs that registers tsx first (as the bin's shim does).
 */
function workerEntry(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./evalWorkerBoot.mjs', import.meta.url);
  const built = packageFile('dist-cli', 'eval-worker.mjs');
  if (!existsSync(built)) throw new Error(`${built} is missing; rebuild the CLI (npm run build:cli)`);
  return new URL(`file://${built}`);
}

export async function evaluateInPool(gt: MaskSet, pred: MaskSet, jobs: readonly ClipJob[], workers: number, tick: () => void): Promise<ClipOutcome[]> {
  const outcomes: (ClipOutcome | undefined)[] = new Array(jobs.length);
  const errors = new Map<number, Error>();
  let next = 0;
  const entry = workerEntry();
  const runWorker = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(entry);
      const feed = (): void => {
        // After a failure, clips later than the failing one are not needed: the first error wins.
        const firstError = errors.size > 0 ? Math.min(...errors.keys()) : Infinity;
        if (next >= jobs.length || next > firstError) {
          void worker.terminate().then(() => resolve());
          return;
        }
        const index = next++;
        worker.postMessage({ index, job: jobs[index] } satisfies WorkerRequest);
      };
      worker.on('message', (m: WorkerMessage) => {
        if ('tick' in m) return tick();
        if ('error' in m) {
          const err = m.error.data ? new DataError(m.error.message) : new Error(m.error.message);
          if (!m.error.data && m.error.stack) err.stack = m.error.stack;
          errors.set(m.index, err);
        } else outcomes[m.index] = { clip: m.clip, warnings: m.warnings };
        feed();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (code !== 0 && code !== 1) reject(new Error(`evaluation worker exited with code ${code}`));
      });
      worker.postMessage({ gt: plain(gt), pred: plain(pred) } satisfies WorkerRequest);
      feed();
    });
  await Promise.all(Array.from({ length: Math.min(workers, jobs.length) }, runWorker));
  if (errors.size > 0) throw errors.get(Math.min(...errors.keys()))!;
  return outcomes.map((o) => o ?? { clip: null, warnings: [] });
}
