/**
 * Frame-accurate sampling of a video at a chosen rate.
 *
 * Definition: sampled frame k is the frame being displayed at presentation time
 * t_k = start + k / fps, i.e. the last decoded frame whose start timestamp is <= t_k, for every k with
 * k / fps < duration. `start` is the track's first timestamp, so a file whose first frame is stamped
 * 0.033 s still yields its first frame as frame 0. A tolerance of 1 microsecond absorbs time-base
 * rounding (frame times are stored as integer ticks of e.g. 1/90000 s or 1 ms) without ever reaching
 * the next frame, since no real video has frames less than a microsecond apart.
 */
export const TIMESTAMP_TOLERANCE_SEC = 1e-6;

/** The most frames one clip may hold; beyond this an import is refused instead of exhausting memory. */
export const MAX_SAMPLED_FRAMES = 20_000;

export const MIN_SAMPLE_FPS = 0.01;
export const MAX_SAMPLE_FPS = 120;

export function sampledFrameCount(durationSec: number, fps: number): number {
  if (!(durationSec > 0) || !(fps > 0)) return 0;
  // k / fps < duration  <=>  k < duration * fps; guard against 4.999999 vs 5 float noise.
  const exact = durationSec * fps;
  const rounded = Math.round(exact);
  return Math.abs(exact - rounded) < 1e-9 ? rounded : Math.ceil(exact);
}

/** Presentation times to request from the decoder for each sampled frame. */
export function samplingTimestamps(startSec: number, durationSec: number, fps: number): number[] {
  const n = sampledFrameCount(durationSec, fps);
  const out = new Array<number>(n);
  for (let k = 0; k < n; k++) out[k] = startSec + k / fps + TIMESTAMP_TOLERANCE_SEC;
  return out;
}

/** The nominal timestamp recorded for frame k (relative to the clip start, no tolerance). */
export function nominalTimestamp(k: number, fps: number): number {
  return k / fps;
}

export function validateSampleFps(fps: number): string | null {
  if (!Number.isFinite(fps) || fps < MIN_SAMPLE_FPS || fps > MAX_SAMPLE_FPS) {
    return `sampling rate ${fps} fps is outside ${MIN_SAMPLE_FPS}..${MAX_SAMPLE_FPS} fps`;
  }
  return null;
}
