/**
 * Browser only: encodes a demo clip into a real video file with mediabunny (WebCodecs under the
 * hood). Frame i is rendered at t = i / fps with barcode value i, drawn onto an OffscreenCanvas and
 * added with timestamp i / fps and duration 1 / fps. Key frames every `keyFrameIntervalSec` keep
 * seeking cheap. Not used in Node (no WebCodecs / OffscreenCanvas there).
 */
import {
  BufferTarget,
  CanvasSource,
  Mp4OutputFormat,
  Output,
  Quality,
  WebMOutputFormat,
  canEncodeVideo,
  type QualityLevel,
} from 'mediabunny';
import type { DemoClip } from './generator';
import { sampleTimes } from './generator';

export type DemoVideoCodec = 'vp9' | 'vp8' | 'avc';
export type DemoVideoContainer = 'webm' | 'mp4';

export interface EncodeDemoVideoOptions {
  /** Frames per second (default 10). */
  fps?: number;
  /** Default 'vp9'. */
  codec?: DemoVideoCodec;
  /** Default 'mp4' for avc, otherwise 'webm'. VP8/VP9 go in WebM or MP4; AVC needs MP4. */
  container?: DemoVideoContainer;
  /** Encoder quality (default 'high'; a number in [0, 1] also works). */
  quality?: QualityLevel | number;
  /** Seconds between key frames (default 1). */
  keyFrameIntervalSec?: number;
  /** Called after each frame is handed to the encoder. */
  onProgress?: (framesDone: number, framesTotal: number) => void;
  signal?: AbortSignal;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The video encoding was aborted.', 'AbortError');
}

export async function encodeDemoVideo(clip: DemoClip, options: EncodeDemoVideoOptions = {}): Promise<Blob> {
  const fps = options.fps ?? 10;
  const codec = options.codec ?? 'vp9';
  const container = options.container ?? (codec === 'avc' ? 'mp4' : 'webm');
  const keyFrameInterval = options.keyFrameIntervalSec ?? 1;
  const { signal, onProgress } = options;
  if (!Number.isFinite(fps) || fps <= 0 || fps > 240) throw new RangeError(`fps must be in (0, 240], got ${fps}`);
  if (!Number.isFinite(keyFrameInterval) || keyFrameInterval < 0) throw new RangeError(`keyFrameIntervalSec must be >= 0, got ${keyFrameInterval}`);
  if (typeof OffscreenCanvas === 'undefined') throw new Error('encodeDemoVideo needs OffscreenCanvas (a browser or a worker)');

  const format = container === 'mp4' ? new Mp4OutputFormat({ fastStart: 'in-memory' }) : new WebMOutputFormat();
  if (!format.getSupportedCodecs().includes(codec)) {
    throw new RangeError(`codec ${codec} cannot be stored in ${container}; use ${codec === 'avc' ? 'mp4' : 'webm or mp4'}`);
  }
  const { width, height } = clip;
  if (codec === 'avc' && (width % 2 !== 0 || height % 2 !== 0)) {
    throw new RangeError(`AVC needs even frame dimensions, got ${width}x${height}`);
  }
  const quality = new Quality(options.quality ?? 'high');
  if (!(await canEncodeVideo(codec, { width, height, quality, frameRate: fps }))) {
    throw new Error(`this browser cannot encode ${codec} video at ${width}x${height}`);
  }
  if (signal?.aborted) throw abortError(signal);

  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false });
  if (!ctx) throw new Error('could not get a 2D context for the OffscreenCanvas');

  const output = new Output({ format, target: new BufferTarget() });
  const source = new CanvasSource(canvas, { codec, quality, keyFrameInterval, latencyMode: 'quality' });
  output.addVideoTrack(source, { frameRate: fps });
  const times = sampleTimes(clip.durationSec, fps);
  try {
    await output.start();
    for (let i = 0; i < times.length; i++) {
      if (signal?.aborted) throw abortError(signal);
      const img = clip.renderAt(i / fps, { frameIndex: i });
      const pixels = img.data.buffer instanceof ArrayBuffer ? (img.data as Uint8ClampedArray<ArrayBuffer>) : new Uint8ClampedArray(img.data);
      ctx.putImageData(new ImageData(pixels, width, height), 0, 0);
      // Exact timestamps (seconds); the track's frameRate snaps them to the frame grid.
      await source.add(i / fps, 1 / fps);
      onProgress?.(i + 1, times.length);
    }
    if (signal?.aborted) throw abortError(signal);
    await output.finalize();
  } catch (err) {
    if (output.state !== 'finalized' && output.state !== 'canceled') await output.cancel().catch(() => undefined);
    throw err;
  }
  const buffer = output.target.buffer;
  if (!buffer) throw new Error('the encoder produced no data');
  return new Blob([buffer], { type: format.mimeType });
}
