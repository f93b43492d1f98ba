/**
 * Samples a video file at a chosen rate, frame-accurately (see sampling.ts for the definition),
 * decoding in a worker with WebCodecs through mediabunny. Resolves with every frame or rejects with
 * an ImportError naming the file; nothing is written anywhere, so the caller can commit atomically.
 */
import { RpcClient } from '../../rpc/client';
import { RPC_ERRORS } from '../../rpc/protocol';
import { workerTransport } from '../../rpc/transport';
import { ImportCancelled, ImportError } from '../importError';
import { validateSampleFps } from './sampling';
import type { VideoDecodeApi, VideoMeta } from './api';

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

export async function sampleVideo(file: File, options: SampleVideoOptions): Promise<SampledVideo> {
  const fpsProblem = validateSampleFps(options.fps);
  if (fpsProblem) throw new ImportError(file.name, fpsProblem);
  if (options.signal?.aborted) throw new ImportCancelled();

  // One worker per import, ended with it (a cancel ends it at once, wherever the decoding is).
  const worker = new Worker(new URL('./videoDecode.worker.ts', import.meta.url), { type: 'module' });
  const decoder = new RpcClient<VideoDecodeApi>(workerTransport(worker, 'video decoder'), 'video decoder');
  let meta: VideoMeta | null = null;
  const frames: SampledFrame[] = [];
  try {
    const { frameCount } = await decoder.call(
      'decode',
      { file, fps: options.fps, quality: options.quality ?? 0.92 },
      {
        signal: options.signal,
        onProgress: (p) => {
          if (p.type === 'meta') {
            meta = p.meta;
            options.onProgress?.(0, meta.frameCount);
            return;
          }
          frames[p.index] = { timestampSec: p.timestampSec, sourceTimestampSec: p.sourceTimestampSec, image: p.image, mime: 'image/jpeg' };
          options.onProgress?.(p.index + 1, meta?.frameCount ?? p.index + 1);
        },
      },
    );
    const m = meta as VideoMeta | null;
    if (!m) throw new ImportError(file.name, 'decoder ended without metadata');
    if (frames.length !== frameCount) throw new ImportError(file.name, `decoder reported ${frameCount} frames but sent ${frames.length}`);
    return { meta: m, frames, fps: m.sampleFps, remark: m.remark };
  } catch (e) {
    if (e instanceof ImportError) throw e;
    if (options.signal?.aborted) throw new ImportCancelled();
    const message = e instanceof Error ? e.message : String(e);
    throw new ImportError(file.name, e instanceof Error && e.name === RPC_ERRORS.workerFailed ? `decoder crashed (${message})` : message);
  } finally {
    decoder.destroy();
  }
}
