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
  frameCount: number;
}

export type DecodeEvent =
  | { type: 'meta'; meta: VideoMeta }
  | { type: 'frame'; index: number; timestampSec: number; sourceTimestampSec: number; image: Blob }
  | { type: 'done' }
  | { type: 'error'; problem: string };
