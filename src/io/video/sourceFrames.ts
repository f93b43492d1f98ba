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
import { RpcClient } from '../../rpc/client';
import { RPC_ERRORS } from '../../rpc/protocol';
import { workerTransport } from '../../rpc/transport';
import type { BetweenProgress, VideoDecodeApi } from './api';
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

/** What a failed request says to its reader. */
function sourceError(e: unknown): Error {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof Error && e.name === RPC_ERRORS.workerFailed) return new Error(`The source video could not be read: the video decoder crashed (${message}).`);
  if (e instanceof Error && e.name === RPC_ERRORS.destroyed) return new Error('The source video was closed.');
  return new Error(`The source video ${message}.`);
}

class WorkerSourceFrames implements SourceFrames {
  private nextStream = 1;

  private constructor(
    private readonly decoder: RpcClient<VideoDecodeApi>,
    readonly width: number,
    readonly height: number,
    readonly nativeFps: number | null,
    readonly durationSec: number,
  ) {}

  static async open(file: Blob, width: number, height: number): Promise<WorkerSourceFrames> {
    const worker = new Worker(new URL('./videoDecode.worker.ts', import.meta.url), { type: 'module' });
    const decoder = new RpcClient<VideoDecodeApi>(workerTransport(worker, 'video decoder'), 'video decoder');
    try {
      const opened = await decoder.call('open', { file });
      return new WorkerSourceFrames(decoder, width, height, opened.nativeFps, opened.durationSec);
    } catch (e) {
      decoder.destroy();
      throw sourceError(e);
    }
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
    if (this.decoder.isDestroyed) throw new Error('the source video was closed');
    signal?.throwIfAborted();
    const stream = this.nextStream++;
    const queue: BetweenProgress[] = [];
    const end: { done: boolean; error?: unknown } = { done: false };
    let wake: (() => void) | null = null;
    const poke = () => {
      wake?.();
      wake = null;
    };
    // Ours, so that breaking out of the loop cancels the request as the reader's abort does.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const params = { stream, fromSec, toSec, max: max ?? null, width: this.width, height: this.height };
    const onProgress = (p: BetweenProgress) => {
      queue.push(p);
      poke();
    };
    this.decoder.call('between', params, { signal: stop.signal, onProgress }).then(
      () => ((end.done = true), poke()),
      (error: unknown) => ((end.done = true), (end.error = error ?? new Error('failed')), poke()),
    );
    let finished = false;
    try {
      for (;;) {
        if (queue.length === 0 && !end.done) await new Promise<void>((r) => (wake = r));
        const e = queue.shift();
        if (!e) {
          if (end.error === undefined) {
            finished = true;
            return;
          }
          if (signal?.aborted) signal.throwIfAborted();
          throw sourceError(end.error);
        }
        if (e.type === 'times') {
          yield { times: e.times };
          if (timesOnly) return;
        } else {
          const image: RgbaImage = { width: e.width, height: e.height, data: new Uint8ClampedArray(e.data) };
          yield { timeSec: e.timeSec, image };
          // The reader took this one and asks for the next: the worker may decode one more.
          this.decoder.call('more', { stream }).catch(() => undefined);
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) stop.abort();
    }
  }

  close(): void {
    this.decoder.destroy();
  }
}
