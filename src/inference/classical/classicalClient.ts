/**
 * The UI thread's way to the weight-free assists. `classicalClient()` starts the classical worker
 * on first use (OpenCV itself loads inside it on the first call that needs it) and hands out one
 * shared client. Every call copies the pixels it sends and transfers the copy, so callers keep
 * their buffers; results arrive as transferred typed arrays.
 *
 * ClassicalClient is built on a transport, so tests drive the same client against the handler
 * in-process (structured-cloned like postMessage) with the real OpenCV in Node.
 */
import type { Box, LabelMap, RgbaImage } from '../../masks/labelMap';
import type { ClassicalHandler } from './handler';
import type { FlowOptions, FlowPropagation } from './flow';
import type { ShiftEstimate, ShiftQuery } from './motion';
import type { Refit, RefitOptions } from './refit';
import type { ClassicalMethod, ClassicalMethods, ClassicalRequest, ClassicalResponse } from './protocol';
import type { GrabCutOptions, RegionOptions } from './segment';
import type { ClassifierOptions, StatePrediction, TrainingFrame } from './stateClassifier';

export interface ClassicalTransport {
  send(message: ClassicalRequest, transfer: ArrayBuffer[]): void;
  onMessage(handler: (message: ClassicalResponse) => void): void;
  onFatal(handler: (error: Error) => void): void;
  close(): void;
}

export interface StateSuggestion extends StatePrediction {
  trainMs: number;
  predictMs: number;
  samples: number;
}

const copyImage = (image: RgbaImage): RgbaImage => ({ width: image.width, height: image.height, data: image.data.slice() });
const copyMap = (map: LabelMap): LabelMap => ({ width: map.width, height: map.height, data: map.data.slice() });

export class ClassicalClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private dead: Error | null = null;
  /** Timings of the last call of each kind (ms), for status lines and benches. */
  readonly lastMs: Partial<Record<ClassicalMethod, number>> = {};

  constructor(private readonly transport: ClassicalTransport) {
    transport.onMessage((m) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error));
    });
    transport.onFatal((e) => {
      this.dead = e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
  }

  /** The worker failed fatally; every call now fails, so callers should get a new client. */
  get isDead(): boolean {
    return this.dead !== null;
  }

  private call<M extends ClassicalMethod>(method: M, params: ClassicalMethods[M]['params'], transfer: ArrayBuffer[]): Promise<ClassicalMethods[M]['result']> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.transport.send({ id, method, params } as ClassicalRequest, transfer);
    });
  }

  /** Loads OpenCV now (e.g. when the fallback tool is picked) and returns the load time. */
  async warmUp(): Promise<number> {
    return (await this.call('warmUp', {}, [])).loadMs;
  }

  async grabCut(image: RgbaImage, box: Box, options?: GrabCutOptions): Promise<Uint8Array> {
    const img = copyImage(image);
    const r = await this.call('grabCut', { image: img, box, options }, [img.data.buffer as ArrayBuffer]);
    this.lastMs.grabCut = r.ms;
    return r.mask;
  }

  async regionFromClick(image: RgbaImage, point: { x: number; y: number }, options?: RegionOptions): Promise<Uint8Array> {
    const img = copyImage(image);
    const r = await this.call('regionFromClick', { image: img, point, options }, [img.data.buffer as ArrayBuffer]);
    this.lastMs.regionFromClick = r.ms;
    return r.mask;
  }

  async scissorsPath(image: RgbaImage, points: readonly { x: number; y: number }[]): Promise<{ x: number; y: number }[]> {
    const img = copyImage(image);
    const r = await this.call('scissorsPath', { image: img, points: points.map((p) => ({ x: p.x, y: p.y })) }, [img.data.buffer as ArrayBuffer]);
    this.lastMs.scissorsPath = r.ms;
    return r.path;
  }

  /** The region enclosed by the edge-following path through `points` (>= 3), and the path. */
  async scissorsRegion(image: RgbaImage, points: readonly { x: number; y: number }[]): Promise<{ path: { x: number; y: number }[]; mask: Uint8Array }> {
    const img = copyImage(image);
    const r = await this.call('scissorsRegion', { image: img, points: points.map((p) => ({ x: p.x, y: p.y })) }, [img.data.buffer as ArrayBuffer]);
    this.lastMs.scissorsRegion = r.ms;
    return { path: r.path, mask: r.mask };
  }

  /**
   * Carries `labels` (on `prev`) to `next` along Farneback optical flow; `confidence` in [0, 1] is
   * the share of carried object pixels passing forward–backward and brightness checks (see flow.ts).
   */
  async propagateByFlow(prev: RgbaImage, next: RgbaImage, labels: LabelMap, options?: FlowOptions): Promise<FlowPropagation> {
    const a = copyImage(prev);
    const b = copyImage(next);
    const l = copyMap(labels);
    const r = await this.call('propagateByFlow', { prev: a, next: b, labels: l, options }, [a.data.buffer, b.data.buffer, l.data.buffer] as ArrayBuffer[]);
    this.lastMs.propagateByFlow = r.ms;
    return { map: r.map, confidence: r.confidence };
  }

  /** Where each masked object of `a` went on `b` (motion.ts); the masks are copied, the images too. */
  async estimateShifts(a: RgbaImage, b: RgbaImage, queries: readonly ShiftQuery[]): Promise<ShiftEstimate[]> {
    const x = copyImage(a);
    const y = copyImage(b);
    const q = queries.map((k) => ({ ...k, mask: k.mask.slice() }));
    const r = await this.call('estimateShifts', { a: x, b: y, queries: q }, [x.data.buffer, y.data.buffer, ...q.map((k) => k.mask.buffer)] as ArrayBuffer[]);
    this.lastMs.estimateShifts = r.ms;
    return r.shifts;
  }

  /** GrabCut re-fit of a carried label map to `image` (refit.ts). */
  async refitLabels(image: RgbaImage, carried: LabelMap, options?: RefitOptions): Promise<Refit> {
    const img = copyImage(image);
    const l = copyMap(carried);
    const r = await this.call('refitLabels', { image: img, carried: l, options }, [img.data.buffer, l.data.buffer] as ArrayBuffer[]);
    this.lastMs.refitLabels = r.ms;
    return { map: r.map, groups: r.groups };
  }

  /** Trains the colour/texture state classifier on `train` and labels `target` (inside `targetMask` when given). */
  async classifyStates(train: readonly TrainingFrame[], target: RgbaImage, targetMask?: Uint8Array, options?: ClassifierOptions): Promise<StateSuggestion> {
    const frames = train.map((f) => ({ image: copyImage(f.image), labels: copyMap(f.labels) }));
    const t = copyImage(target);
    const m = targetMask?.slice();
    const transfer = [...frames.flatMap((f) => [f.image.data.buffer, f.labels.data.buffer]), t.data.buffer, ...(m ? [m.buffer] : [])] as ArrayBuffer[];
    const r = await this.call('classifyStates', { train: frames, target: t, targetMask: m, options }, transfer);
    this.lastMs.classifyStates = r.trainMs + r.predictMs;
    return r;
  }

  close(): void {
    this.transport.close();
    this.dead ??= new Error('the classical client was closed');
  }
}

export function classicalWorkerTransport(worker: Worker): ClassicalTransport {
  let fatal: (error: Error) => void = () => undefined;
  return {
    send: (message, transfer) => worker.postMessage(message, transfer),
    onMessage(handler) {
      worker.onmessage = (e: MessageEvent<ClassicalResponse>) => handler(e.data);
      worker.onmessageerror = () => fatal(new Error('a message from the classical worker could not be deserialised'));
    },
    onFatal(handler) {
      fatal = handler;
      worker.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        handler(new Error(`classical worker failed: ${e.message || 'script error'}`));
      };
    },
    close: () => worker.terminate(),
  };
}

/** Runs the handler in this thread, cloning every message like postMessage would (tests, Node). */
export function inProcessClassicalTransport(handler: ClassicalHandler): ClassicalTransport {
  let receive: (message: ClassicalResponse) => void = () => undefined;
  let closed = false;
  return {
    send(message, transfer) {
      if (closed) return;
      const cloned = structuredClone(message, { transfer });
      queueMicrotask(() => void handler.handle(cloned, (response, t) => !closed && receive(structuredClone(response, { transfer: t }))));
    },
    onMessage(h) {
      receive = h;
    },
    onFatal() {},
    close() {
      closed = true;
    },
  };
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
    current = new ClassicalClient(classicalWorkerTransport(worker));
    return current;
  });
  return shared;
}
