/** A worker thread of evalPool.ts: opens the two mask folders once, then evaluates the clips it is sent. */
import { parentPort } from 'node:worker_threads';
import { evaluateVideo } from './evaluate';
import type { PlainMaskSet, WorkerMessage, WorkerRequest } from './evalPool';
import { InputTree } from './inputTree';
import { asDataError } from './io';
import type { MaskSet } from './layout';

const port = parentPort!;
let sets: Promise<{ gt: MaskSet; pred: MaskSet }> | null = null;

const open = async (set: PlainMaskSet): Promise<MaskSet> => ({ ...set, tree: await InputTree.open(set.abs, set.dirArg) });
const send = (m: WorkerMessage): void => port.postMessage(m);

port.on('message', (m: WorkerRequest) => {
  if ('gt' in m) {
    sets = Promise.all([open(m.gt), open(m.pred)]).then(([gt, pred]) => ({ gt, pred }));
    return;
  }
  void (async () => {
    const warnings: string[] = [];
    try {
      const { gt, pred } = await sets!;
      const { video, predVideo, taxonomy, boundary } = m.job;
      // The convention only matters to the aggregation, which the main thread does.
      const clip = await evaluateVideo(gt, pred, video, predVideo, taxonomy, { convention: 'clip-pooled', boundary }, warnings, () => send({ tick: true }));
      send({ index: m.index, clip, warnings });
    } catch (err) {
      const data = asDataError(err);
      const e = err as Error;
      send({ index: m.index, error: { message: data ? data.message : String(e?.message ?? err), data: data !== null, stack: e?.stack } });
    }
  })();
});
