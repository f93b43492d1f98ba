/** Messages between the page and the video decoding worker (one worker per import). */
export interface DecodeRequest {
  type: 'decode';
  file: File;
  fps: number;
  /** JPEG quality for the stored frames (0..1). */
  quality: number;
}

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

export type DecodeEvent =
  | { type: 'meta'; meta: VideoMeta }
  | { type: 'frame'; index: number; timestampSec: number; sourceTimestampSec: number; image: Blob }
  | { type: 'done'; frameCount: number }
  | { type: 'error'; problem: string };

/**
 * Reading a kept source video (sourceFrames.ts): one long-lived worker per open video, requests
 * carry ids. `between` decodes the native frames strictly between two sampled frames; the worker
 * sends at most `FRAME_CREDITS` frames ahead of the page's `more` acknowledgements, so a slow reader
 * never has a clip's worth of raw frames queued in memory.
 */
export type SourceRequest =
  | { type: 'source-open'; id: number; file: Blob }
  | { type: 'source-between'; id: number; fromSec: number; toSec: number; max: number | null; width: number; height: number }
  | { type: 'source-more'; id: number }
  | { type: 'source-cancel'; id: number };

export type SourceEvent =
  | { type: 'source-opened'; id: number; startSec: number; durationSec: number; nativeFps: number | null; width: number; height: number }
  /** The clip times of the frames that will follow, in order (after thinning). */
  | { type: 'source-times'; id: number; times: number[] }
  | { type: 'source-frame'; id: number; timeSec: number; width: number; height: number; data: ArrayBuffer }
  | { type: 'source-done'; id: number }
  | { type: 'source-error'; id: number; problem: string };

export const FRAME_CREDITS = 2;
