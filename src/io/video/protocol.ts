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
