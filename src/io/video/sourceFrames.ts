/**
 * Decoded native frames of a clip's kept source video, for code (propagation through the frames
 * between the sampled ones). Decoding runs in the video decode worker (videoDecode.worker.ts) with
 * mediabunny over WebCodecs; frames arrive scaled to the clip's width x height, so they line up
 * pixel for pixel with the sampled frames and their masks.
 *
 *   const src = await openSourceFrames(clip);          // null: the clip has no video, or it is missing
 *   if (src) {
 *     for await (const { timeSec, image } of src.framesBetween(frames[k].timestampSec, frames[k + 1].timestampSec, { max: 8 })) { … }
 *     src.close();
 *   }
 *
 * Times are clip times, like Frame.timestampSec (seconds from the video's first frame).
 */
import type { RgbaImage } from '../../masks/labelMap';
import type { Clip } from '../../store/types';
import type { VideoFiles } from '../../store/videoFiles';
import type { SourceEvent, SourceRequest } from './protocol';
import { sourceVideoFile } from './sourceVideoFile';

export interface SourceFrame {
  /** Clip time of the native frame (seconds from the video's first frame). */
  timeSec: number;
  image: RgbaImage;
}

export interface FramesBetweenOptions {
  /** At most this many frames, spread evenly over the gap (betweenFrames.ts thinEvenly). */
  max?: number;
  signal?: AbortSignal;
}

export interface SourceFrames {
  /** The video's own frame rate, or null when it could not be measured. */
  readonly nativeFps: number | null;
  readonly durationSec: number;
  /** The size frames are delivered at: the clip's. */
  readonly width: number;
  readonly height: number;
  /** Clip times of the native frames strictly between two sampled frames' timestamps (after thinning to `max`). */
  timesBetween(fromSec: number, toSec: number, options?: FramesBetweenOptions): Promise<number[]>;
  /**
   * The native frames strictly between the sampled frames at `fromSec` and `toSec` (exclusive at
   * both ends), in order. Aborting the signal ends the iteration with an AbortError; breaking out of
   * the loop stops the decoding.
   */
  framesBetween(fromSec: number, toSec: number, options?: FramesBetweenOptions): AsyncIterable<SourceFrame>;
  /** Ends the worker. Requests still running end with an error. */
  close(): void;
}

/** The clip's source video as decoded frames, or null when the clip has no kept (or linked) video. */
export async function openSourceFrames(clip: Pick<Clip, 'source' | 'width' | 'height'>, files: VideoFiles | null = null): Promise<SourceFrames | null> {
  const file = await sourceVideoFile(clip, files);
  if (!file) return null;
  return WorkerSourceFrames.open(file, clip.width, clip.height);
}

type Listener = (e: SourceEvent) => void;

class WorkerSourceFrames implements SourceFrames {
  private nextId = 1;
  private readonly listeners = new Map<number, Listener>();
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    readonly width: number,
    readonly height: number,
    readonly nativeFps: number | null,
    readonly durationSec: number,
  ) {
    worker.onmessage = (e: MessageEvent<SourceEvent>) => this.listeners.get(e.data.id)?.(e.data);
    worker.onerror = (e) => {
      const problem = `the video decoder crashed (${e.message || 'worker error'})`;
      for (const [id, l] of this.listeners) l({ type: 'source-error', id, problem });
    };
  }

  static open(file: Blob, width: number, height: number): Promise<WorkerSourceFrames> {
    const worker = new Worker(new URL('./videoDecode.worker.ts', import.meta.url), { type: 'module' });
    return new Promise((resolve, reject) => {
      worker.onerror = (e) => {
        worker.terminate();
        reject(new Error(`the video decoder crashed (${e.message || 'worker error'})`));
      };
      worker.onmessage = (e: MessageEvent<SourceEvent>) => {
        const msg = e.data;
        if (msg.type === 'source-opened') resolve(new WorkerSourceFrames(worker, width, height, msg.nativeFps, msg.durationSec));
        else if (msg.type === 'source-error') {
          worker.terminate();
          reject(new Error(`The source video ${msg.problem}.`));
        }
      };
      const req: SourceRequest = { type: 'source-open', id: 0, file };
      worker.postMessage(req);
    });
  }

  async timesBetween(fromSec: number, toSec: number, options: FramesBetweenOptions = {}): Promise<number[]> {
    const it = this.run(fromSec, toSec, options, true);
    const first = await it.next();
    await it.return(undefined);
    return first.done ? [] : (first.value as { times: number[] }).times;
  }

  framesBetween(fromSec: number, toSec: number, options: FramesBetweenOptions = {}): AsyncIterable<SourceFrame> {
    const run = () => this.run(fromSec, toSec, options, false);
    return {
      async *[Symbol.asyncIterator]() {
        for await (const item of run()) if ('image' in item) yield item;
      },
    };
  }

  /** One `between` request as a stream of its times, then its frames; `timesOnly` stops after the times. */
  private async *run(fromSec: number, toSec: number, { max, signal }: FramesBetweenOptions, timesOnly: boolean): AsyncGenerator<SourceFrame | { times: number[] }> {
    if (this.closed) throw new Error('the source video was closed');
    signal?.throwIfAborted();
    const id = this.nextId++;
    const queue: SourceEvent[] = [];
    let wake: (() => void) | null = null;
    const push = (e: SourceEvent) => {
      queue.push(e);
      wake?.();
      wake = null;
    };
    const onAbort = () => push({ type: 'source-error', id, problem: 'aborted' });
    this.listeners.set(id, push);
    signal?.addEventListener('abort', onAbort, { once: true });
    const send = (req: SourceRequest) => this.worker.postMessage(req);
    send({ type: 'source-between', id, fromSec, toSec, max: max ?? null, width: this.width, height: this.height });
    let finished = false;
    try {
      for (;;) {
        if (queue.length === 0) await new Promise<void>((r) => (wake = r));
        const e = queue.shift()!;
        if (e.type === 'source-error') {
          if (signal?.aborted) signal.throwIfAborted();
          throw new Error(`The source video ${e.problem}.`);
        }
        if (e.type === 'source-done') {
          finished = true;
          return;
        }
        if (e.type === 'source-times') {
          yield { times: e.times };
          if (timesOnly) return;
        }
        if (e.type === 'source-frame') {
          const image: RgbaImage = { width: e.width, height: e.height, data: new Uint8ClampedArray(e.data) };
          yield { timeSec: e.timeSec, image };
          // The reader took this one and asks for the next: the worker may decode one more.
          send({ type: 'source-more', id });
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.listeners.delete(id);
      if (!finished && !this.closed) send({ type: 'source-cancel', id });
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.worker.terminate();
    for (const [id, l] of this.listeners) l({ type: 'source-error', id, problem: 'was closed' });
  }
}
