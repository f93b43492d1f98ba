/**
 * Everything the classical worker does, apart from the message port: the handlers of its API,
 * served by the app's worker RPC (src/rpc/server.ts). OpenCV is loaded on the first request that
 * needs it (the classifier never does) and each method runs one pure algorithm. Tests drive it in
 * Node with the real OpenCV through the RPC's in-process transport.
 */
import type { Cv } from './cv';
import { grabCut, regionFromClick, scissorsPath, scissorsRegion } from './segment';
import { propagateByFlow } from './flow';
import { estimateShift } from './motion';
import { refitLabels } from './refit';
import { predictStates, trainStateModel } from './stateClassifier';
import { createRpcServer, type RpcServer } from '../../rpc/server';
import type { ClassicalMethods } from './api';

export function createClassicalHandler(loadCv: () => Promise<{ cv: Cv }>): RpcServer {
  let loading: Promise<{ cv: Cv; loadMs: number }> | null = null;
  const opencv = () => {
    if (!loading) {
      const t0 = performance.now();
      loading = loadCv().then(({ cv }) => ({ cv, loadMs: performance.now() - t0 }));
      // A failed load may be retried by the next request.
      loading.catch(() => (loading = null));
    }
    return loading;
  };

  /**
   * OpenCV, then a cancel that came while it loaded stops the call before the algorithm runs.
   * Wrapped ({ cv }): an async function returning the module itself would adopt its `then` and hang.
   */
  const cvFor = async (ctx: { checkpoint(): void }): Promise<{ cv: Cv }> => {
    const { cv } = await opencv();
    ctx.checkpoint();
    return { cv };
  };
  const timed = <T extends object>(work: () => T): T & { ms: number } => {
    const t0 = performance.now();
    const result = work();
    return { ...result, ms: performance.now() - t0 };
  };

  // No queue: each algorithm is synchronous, so calls run one after another anyway.
  return createRpcServer<ClassicalMethods>({
    warmUp: async () => ({ loadMs: (await opencv()).loadMs }),
    grabCut: async ({ image, box, options }, ctx) => {
      const { cv } = await cvFor(ctx);
      return timed(() => ({ mask: grabCut(cv, image, box, options) }));
    },
    regionFromClick: async ({ image, point, options }, ctx) => {
      const { cv } = await cvFor(ctx);
      return timed(() => ({ mask: regionFromClick(cv, image, point, options) }));
    },
    scissorsPath: async ({ image, points }, ctx) => {
      const { cv } = await cvFor(ctx);
      return timed(() => ({ path: scissorsPath(cv, image, points) }));
    },
    scissorsRegion: async ({ image, points }, ctx) => {
      const { cv } = await cvFor(ctx);
      return timed(() => scissorsRegion(cv, image, points));
    },
    propagateByFlow: async ({ prev, next, labels, options }, ctx) => {
      const { cv } = await cvFor(ctx);
      return timed(() => propagateByFlow(cv, prev, next, labels, options));
    },
    // Pure TS: no OpenCV needed.
    estimateShifts: ({ a, b, queries }) => timed(() => ({ shifts: queries.map((q) => estimateShift(a, b, q)) })),
    refitLabels: async ({ image, carried, options }, ctx) => {
      const { cv } = await cvFor(ctx);
      return timed(() => refitLabels(cv, image, carried, options));
    },
    classifyStates: ({ train, target, targetMask, options }) => {
      const t0 = performance.now();
      const model = trainStateModel(train, options);
      const t1 = performance.now();
      const prediction = predictStates(model, target, targetMask, options);
      return { ...prediction, trainMs: t1 - t0, predictMs: performance.now() - t1, samples: model.samples };
    },
  });
}
