/**
 * The UI thread's way to the weight-free assists. `classicalClient()` starts the classical worker
 * on first use (OpenCV itself loads inside it on the first call that needs it) and hands out one
 * shared client. Every call copies the pixels it sends and transfers the copy, so callers keep
 * their buffers; results arrive as transferred typed arrays.
 *
 * ClassicalClient is the app's worker RPC client (src/rpc/) over a transport, so tests drive the
 * same client against the handler in-process (structured-cloned like postMessage) with the real
 * OpenCV in Node. Every method takes an optional last `{ signal }` to cancel it.
 */
import type { Box, LabelMap, RgbaImage } from '../../masks/labelMap';
import { RpcClient } from '../../rpc/client';
import { workerTransport, type Transport } from '../../rpc/transport';
import type { FlowOptions, FlowPropagation } from './flow';
import type { ShiftEstimate, ShiftQuery } from './motion';
import type { Refit, RefitOptions } from './refit';
import type { ClassicalMethod, ClassicalMethods } from './api';
import type { GrabCutOptions, RegionOptions } from './segment';
import type { ClassifierOptions, StatePrediction, TrainingFrame } from './stateClassifier';

export interface ClassicalCallOptions {
  signal?: AbortSignal;
}

export interface StateSuggestion extends StatePrediction {
  trainMs: number;
  predictMs: number;
  samples: number;
}

const copyImage = (image: RgbaImage): RgbaImage => ({ width: image.width, height: image.height, data: image.data.slice() });
const copyMap = (map: LabelMap): LabelMap => ({ width: map.width, height: map.height, data: map.data.slice() });

export class ClassicalClient {
  private readonly rpc: RpcClient<ClassicalMethods>;
  /** Timings of the last call of each kind (ms), for status lines and benches. */
  readonly lastMs: Partial<Record<ClassicalMethod, number>> = {};

  constructor(transport: Transport) {
    this.rpc = new RpcClient(transport, 'classical');
  }

  /** The worker failed fatally (or the client was closed); every call now fails, so callers should get a new client. */
  get isDead(): boolean {
    return this.rpc.failure !== null || this.rpc.isDestroyed;
  }

  /** `transfer` lists the buffers of the copies made for this call (never the caller's own arrays). */
  private call<M extends ClassicalMethod>(method: M, params: ClassicalMethods[M]['params'], transfer: ArrayBufferLike[], options: ClassicalCallOptions = {}): Promise<ClassicalMethods[M]['result']> {
    const failure = this.rpc.failure;
    if (failure) return Promise.reject(failure);
    return this.rpc.call(method, params, { signal: options.signal, transfer: transfer as ArrayBuffer[] });
  }

  /** Loads OpenCV now (e.g. when the fallback tool is picked) and returns the load time. */
  async warmUp(call?: ClassicalCallOptions): Promise<number> {
    return (await this.call('warmUp', {}, [], call)).loadMs;
  }

  async grabCut(image: RgbaImage, box: Box, options?: GrabCutOptions, call?: ClassicalCallOptions): Promise<Uint8Array> {
    const img = copyImage(image);
    const r = await this.call('grabCut', { image: img, box, options }, [img.data.buffer], call);
    this.lastMs.grabCut = r.ms;
    return r.mask;
  }

  async regionFromClick(image: RgbaImage, point: { x: number; y: number }, options?: RegionOptions, call?: ClassicalCallOptions): Promise<Uint8Array> {
    const img = copyImage(image);
    const r = await this.call('regionFromClick', { image: img, point, options }, [img.data.buffer], call);
    this.lastMs.regionFromClick = r.ms;
    return r.mask;
  }

  async scissorsPath(image: RgbaImage, points: readonly { x: number; y: number }[], call?: ClassicalCallOptions): Promise<{ x: number; y: number }[]> {
    const img = copyImage(image);
    const r = await this.call('scissorsPath', { image: img, points: points.map((p) => ({ x: p.x, y: p.y })) }, [img.data.buffer], call);
    this.lastMs.scissorsPath = r.ms;
    return r.path;
  }

  /** The region enclosed by the edge-following path through `points` (>= 3), and the path. */
  async scissorsRegion(image: RgbaImage, points: readonly { x: number; y: number }[], call?: ClassicalCallOptions): Promise<{ path: { x: number; y: number }[]; mask: Uint8Array }> {
    const img = copyImage(image);
    const r = await this.call('scissorsRegion', { image: img, points: points.map((p) => ({ x: p.x, y: p.y })) }, [img.data.buffer], call);
    this.lastMs.scissorsRegion = r.ms;
    return { path: r.path, mask: r.mask };
  }

  /**
   * Carries `labels` (on `prev`) to `next` along Farneback optical flow; `confidence` in [0, 1] is
   * the share of carried object pixels passing forward–backward and brightness checks (see flow.ts).
   */
  async propagateByFlow(prev: RgbaImage, next: RgbaImage, labels: LabelMap, options?: FlowOptions, call?: ClassicalCallOptions): Promise<FlowPropagation> {
    const a = copyImage(prev);
    const b = copyImage(next);
    const l = copyMap(labels);
    const r = await this.call('propagateByFlow', { prev: a, next: b, labels: l, options }, [a.data.buffer, b.data.buffer, l.data.buffer], call);
    this.lastMs.propagateByFlow = r.ms;
    return { map: r.map, confidence: r.confidence };
  }

  /** Where each masked object of `a` went on `b` (motion.ts); the masks are copied, the images too. */
  async estimateShifts(a: RgbaImage, b: RgbaImage, queries: readonly ShiftQuery[], call?: ClassicalCallOptions): Promise<ShiftEstimate[]> {
    const x = copyImage(a);
    const y = copyImage(b);
    const q = queries.map((k) => ({ ...k, mask: k.mask.slice() }));
    const r = await this.call('estimateShifts', { a: x, b: y, queries: q }, [x.data.buffer, y.data.buffer, ...q.map((k) => k.mask.buffer)], call);
    this.lastMs.estimateShifts = r.ms;
    return r.shifts;
  }

  /** GrabCut re-fit of a carried label map to `image` (refit.ts). */
  async refitLabels(image: RgbaImage, carried: LabelMap, options?: RefitOptions, call?: ClassicalCallOptions): Promise<Refit> {
    const img = copyImage(image);
    const l = copyMap(carried);
    const r = await this.call('refitLabels', { image: img, carried: l, options }, [img.data.buffer, l.data.buffer], call);
    this.lastMs.refitLabels = r.ms;
    return { map: r.map, groups: r.groups };
  }

  /** Trains the colour/texture state classifier on `train` and labels `target` (inside `targetMask` when given). */
  async classifyStates(train: readonly TrainingFrame[], target: RgbaImage, targetMask?: Uint8Array, options?: ClassifierOptions, call?: ClassicalCallOptions): Promise<StateSuggestion> {
    const frames = train.map((f) => ({ image: copyImage(f.image), labels: copyMap(f.labels) }));
    const t = copyImage(target);
    const m = targetMask?.slice();
    const transfer = [...frames.flatMap((f) => [f.image.data.buffer, f.labels.data.buffer]), t.data.buffer, ...(m ? [m.buffer] : [])];
    const r = await this.call('classifyStates', { train: frames, target: t, targetMask: m, options }, transfer, call);
    this.lastMs.classifyStates = r.trainMs + r.predictMs;
    return r;
  }

  close(): void {
    this.rpc.destroy();
  }
}

let shared: Promise<ClassicalClient> | null = null;
let current: ClassicalClient | null = null;

/** The app's one classical client; the worker starts on the first call of this function. */
export function classicalClient(): Promise<ClassicalClient> {
  // A worker that died (out of memory in OpenCV, a crash) is replaced on the next call.
  if (current?.isDead) {
    current = null;
    shared = null;
  }
  shared ??= Promise.resolve().then(() => {
    const worker = new Worker(new URL('./classical.worker.ts', import.meta.url), { type: 'module', name: 'classical' });
    current = new ClassicalClient(workerTransport(worker, 'classical'));
    return current;
  });
  return shared;
}
