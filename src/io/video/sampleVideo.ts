/**
 * Samples a video file at a chosen rate, frame-accurately (see sampling.ts for the definition),
 * decoding in a worker with WebCodecs through mediabunny. Resolves with every frame or rejects with
 * an ImportError naming the file; nothing is written anywhere, so the caller can commit atomically.
 */
import { ImportCancelled, ImportError } from '../importError';
import { validateSampleFps } from './sampling';
import type { DecodeEvent, DecodeRequest, VideoMeta } from './protocol';

export interface SampledFrame {
  timestampSec: number;
  /** Presentation time of the decoded frame that was taken (for diagnostics and tests). */
  sourceTimestampSec: number;
  image: Blob;
  mime: string;
}

export interface SampledVideo {
  meta: VideoMeta;
  frames: SampledFrame[];
  /** The rate the frames were sampled at (meta.sampleFps): the clip's rate. */
  fps: number;
  /** Why that rate differs from the one asked for (it reached the video's own), or null. */
  remark: string | null;
}

export interface SampleVideoOptions {
  fps: number;
  quality?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export function sampleVideo(file: File, options: SampleVideoOptions): Promise<SampledVideo> {
  const fpsProblem = validateSampleFps(options.fps);
  if (fpsProblem) return Promise.reject(new ImportError(file.name, fpsProblem));
  if (options.signal?.aborted) return Promise.reject(new ImportCancelled());

  return new Promise<SampledVideo>((resolve, reject) => {
    const worker = new Worker(new URL('./videoDecode.worker.ts', import.meta.url), { type: 'module' });
    let meta: VideoMeta | null = null;
    const frames: SampledFrame[] = [];

    const finish = (outcome: () => void) => {
      worker.terminate();
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const onAbort = () => finish(() => reject(new ImportCancelled()));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    worker.onerror = (e) => finish(() => reject(new ImportError(file.name, `decoder crashed (${e.message || 'worker error'})`)));
    worker.onmessage = (e: MessageEvent<DecodeEvent>) => {
      const msg = e.data;
      switch (msg.type) {
        case 'meta':
          meta = msg.meta;
          options.onProgress?.(0, meta.frameCount);
          break;
        case 'frame':
          frames[msg.index] = {
            timestampSec: msg.timestampSec,
            sourceTimestampSec: msg.sourceTimestampSec,
            image: msg.image,
            mime: 'image/jpeg',
          };
          options.onProgress?.(msg.index + 1, meta?.frameCount ?? msg.index + 1);
          break;
        case 'done': {
          const m = meta;
          finish(() =>
            m && frames.length === msg.frameCount
              ? resolve({ meta: m, frames, fps: m.sampleFps, remark: m.remark })
              : reject(new ImportError(file.name, m ? `decoder reported ${msg.frameCount} frames but sent ${frames.length}` : 'decoder ended without metadata')),
          );
          break;
        }
        case 'error':
          finish(() => reject(new ImportError(file.name, msg.problem)));
          break;
      }
    };
    const request: DecodeRequest = { type: 'decode', file, fps: options.fps, quality: options.quality ?? 0.92 };
    worker.postMessage(request);
  });
}
