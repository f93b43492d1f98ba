/**
 * Everything the classical worker does, apart from the message port: OpenCV is loaded on the first
 * request that needs it (the classifier never does) and each method runs one pure algorithm.
 * Tests drive it in Node with the real OpenCV through an in-process transport.
 */
import type { Cv } from './cv';
import { grabCut, regionFromClick, scissorsPath, scissorsRegion } from './segment';
import { propagateByFlow } from './flow';
import { estimateShift } from './motion';
import { refitLabels } from './refit';
import { predictStates, trainStateModel } from './stateClassifier';
import { resultTransfer, type ClassicalMethod, type ClassicalMethods, type ClassicalRequest, type ClassicalResponse } from './protocol';

export interface ClassicalHandler {
  handle(request: ClassicalRequest, reply: (response: ClassicalResponse, transfer: ArrayBuffer[]) => void): Promise<void>;
}

export function createClassicalHandler(loadCv: () => Promise<{ cv: Cv }>): ClassicalHandler {
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

  async function run(request: ClassicalRequest): Promise<unknown> {
    switch (request.method) {
      case 'warmUp':
        return { loadMs: (await opencv()).loadMs };
      case 'grabCut': {
        const { cv } = await opencv();
        const t0 = performance.now();
        const { image, box, options } = request.params;
        return { mask: grabCut(cv, image, box, options), ms: performance.now() - t0 };
      }
      case 'regionFromClick': {
        const { cv } = await opencv();
        const t0 = performance.now();
        const { image, point, options } = request.params;
        return { mask: regionFromClick(cv, image, point, options), ms: performance.now() - t0 };
      }
      case 'scissorsPath': {
        const { cv } = await opencv();
        const t0 = performance.now();
        return { path: scissorsPath(cv, request.params.image, request.params.points), ms: performance.now() - t0 };
      }
      case 'scissorsRegion': {
        const { cv } = await opencv();
        const t0 = performance.now();
        return { ...scissorsRegion(cv, request.params.image, request.params.points), ms: performance.now() - t0 };
      }
      case 'propagateByFlow': {
        const { cv } = await opencv();
        const t0 = performance.now();
        const { prev, next, labels, options } = request.params;
        return { ...propagateByFlow(cv, prev, next, labels, options), ms: performance.now() - t0 };
      }
      case 'estimateShifts': {
        // Pure TS: no OpenCV needed.
        const t0 = performance.now();
        const { a, b, queries } = request.params;
        return { shifts: queries.map((q) => estimateShift(a, b, q)), ms: performance.now() - t0 };
      }
      case 'refitLabels': {
        const { cv } = await opencv();
        const t0 = performance.now();
        const { image, carried, options } = request.params;
        return { ...refitLabels(cv, image, carried, options), ms: performance.now() - t0 };
      }
      case 'classifyStates': {
        const { train, target, targetMask, options } = request.params;
        const t0 = performance.now();
        const model = trainStateModel(train, options);
        const t1 = performance.now();
        const prediction = predictStates(model, target, targetMask, options);
        return { ...prediction, trainMs: t1 - t0, predictMs: performance.now() - t1, samples: model.samples };
      }
      default: {
        const unknown: { method: string } = request;
        throw new Error(`unknown method "${unknown.method}"`);
      }
    }
  }

  return {
    async handle(request, reply) {
      try {
        const result = (await run(request)) as ClassicalMethods[ClassicalMethod]['result'];
        reply({ id: request.id, ok: true, result }, resultTransfer(result));
      } catch (e) {
        reply({ id: request.id, ok: false, error: e instanceof Error ? e.message : String(e) }, []);
      }
    },
  };
}
