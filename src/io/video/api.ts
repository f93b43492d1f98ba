/**
 * The video decode worker's API over the app's one worker RPC (src/rpc/, docs/workers.md).
 * An import starts one worker and calls `decode`; a kept source video (sourceFrames.ts) keeps one
 * worker per open video and calls `open`, then `between` as often as it likes.
 */

export interface VideoMeta {
  width: number;
  height: number;
  durationSec: number;
  startSec: number;
  codec: string;
  /** Frames expected (exact when sampling at k / fps; estimated from the rate when taking every frame). */
  frameCount: number;
  /** The video's own frame rate as measured, or null when it could not be. */
  nativeFps: number | null;
  /** The rate actually sampled at: the one asked for, or the native rate when that was reached. */
  sampleFps: number;
  /** Why sampleFps differs from the rate asked for, for the user; null when it does not. */
  remark: string | null;
}

/** What `decode` reports as it goes: the metadata first, then each sampled frame in order. */
export type DecodeProgress =
  | { type: 'meta'; meta: VideoMeta }
  | { type: 'frame'; index: number; timestampSec: number; sourceTimestampSec: number; image: Blob };

/** What `between` reports: the clip times of the frames that will follow (after thinning), then each frame. */
export type BetweenProgress =
  | { type: 'times'; times: number[] }
  | { type: 'frame'; timeSec: number; width: number; height: number; data: ArrayBuffer };

export interface OpenedSource {
  startSec: number;
  durationSec: number;
  nativeFps: number | null;
  width: number;
  height: number;
}

export type VideoDecodeApi = {
  /** Samples a whole file at `fps` as JPEG blobs (`quality` 0..1); answers how many frames it sent. */
  decode: { params: { file: File; fps: number; quality: number }; result: { frameCount: number }; progress: DecodeProgress };
  /** Opens a kept source video in this worker (replacing any open one). */
  open: { params: { file: Blob }; result: OpenedSource };
  /**
   * Decodes the native frames strictly between two sampled frames (clip times), scaled to
   * width x height. `stream` is the caller's name for this request, for `more`: the worker sends
   * at most `FRAME_CREDITS` frames ahead of the page's `more` calls, so a slow reader never has a
   * clip's worth of raw frames queued in memory. Cancel stops the decoding.
   */
  between: {
    params: { stream: number; fromSec: number; toSec: number; max: number | null; width: number; height: number };
    result: null;
    progress: BetweenProgress;
  };
  /** The reader took a frame of `stream`: the worker may decode one more. */
  more: { params: { stream: number }; result: null };
};

export const FRAME_CREDITS = 2;
