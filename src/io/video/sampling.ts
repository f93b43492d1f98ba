/**
 * Frame-accurate sampling of a video at a chosen rate.
 *
 * Definition: sampled frame k is the frame being displayed at presentation time
 * t_k = start + k / fps, i.e. the last decoded frame whose start timestamp is <= t_k, for every k with
 * k / fps < duration. `start` is the track's first timestamp, so a file whose first frame is stamped
 * 0.033 s still yields its first frame as frame 0. A tolerance of 1 microsecond absorbs time-base
 * rounding (frame times are stored as integer ticks of e.g. 1/90000 s or 1 ms) without ever reaching
 * the next frame, since no real video has frames less than a microsecond apart.
 *
 * Never above the video's own rate: asking for more frames per second than the video has would
 * take some frames twice (60 fps on a 29.97 fps clip gave 585 frames from 293). At or above the
 * native rate every frame of the video is taken exactly once, with its own timestamp, and the clip
 * records the native rate; the import says so (planSampling). Below it, a frame that would be taken
 * twice anyway (timestamps rounded to a coarse time base) is taken once (isRepeatedFrame).
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

/**
 * Frame rates cameras and encoders use, the NTSC ones as exact fractions: a measured average this
 * close to one of them is that rate (a 29.97 fps file measures 29.9700… or 29.969… depending on
 * how its last frame's duration was rounded).
 */
const STANDARD_RATES = [24000 / 1001, 24, 25, 30000 / 1001, 30, 48, 50, 60000 / 1001, 60, 100, 120000 / 1001, 120, 240];
const STANDARD_RATE_TOLERANCE = 2e-4;

/** The video's own frame rate from its measured average packet rate, or null when unknown. */
export function nativeFrameRate(averagePacketRate: number): number | null {
  if (!(Number.isFinite(averagePacketRate) && averagePacketRate > 0)) return null;
  const standard = STANDARD_RATES.find((r) => Math.abs(averagePacketRate - r) / r < STANDARD_RATE_TOLERANCE);
  return standard ?? Number(averagePacketRate.toFixed(3));
}

/** A rate as people write it: 1, 5, 29.97. */
export function formatFps(fps: number): string {
  return String(Number(fps.toFixed(3)));
}

export interface SamplingPlan {
  /** The rate the clip is sampled at and records. */
  fps: number;
  /** Take every decoded frame once (at or above the native rate) instead of sampling at k / fps. */
  everyFrame: boolean;
  /** What to tell the user, when the rate differs from the one asked for. */
  remark: string | null;
}

/** How close to the native rate counts as the native rate (rounded rates such as 29.97 for 30000/1001). */
const SAME_RATE = 1e-3;

/**
 * The rate a video is sampled at: the one asked for, unless that reaches the video's own rate
 * (then every frame once, at the native rate). `native` null (unknown) keeps the asked rate.
 */
export function planSampling(requestedFps: number, native: number | null, fileName: string): SamplingPlan {
  if (native === null || requestedFps < native * (1 - SAME_RATE)) return { fps: requestedFps, everyFrame: false, remark: null };
  const above = requestedFps > native * (1 + SAME_RATE);
  return {
    fps: native,
    everyFrame: true,
    remark: above
      ? `${fileName}: sampled at ${formatFps(native)} fps, the video's own frame rate, instead of the ${formatFps(requestedFps)} fps asked for: a higher rate would only repeat frames. Every frame of the video was taken once.`
      : null,
  };
}

/**
 * Whether a decoded frame is the one taken for the previous sample already (same presentation
 * time): then it is not taken again.
 */
export function isRepeatedFrame(previousSourceSec: number | null, sourceSec: number): boolean {
  return previousSourceSec !== null && sourceSec === previousSourceSec;
}

/** Timestamp recorded for a frame taken as it is (every-frame sampling): its time from the clip start, to the microsecond. */
export function ownTimestamp(sourceSec: number, startSec: number): number {
  return Math.max(0, Math.round((sourceSec - startSec) * 1e6) / 1e6);
}
