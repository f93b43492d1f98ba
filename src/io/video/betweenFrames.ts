/**
 * Which native frames of a video lie between two sampled frames, and how to thin them evenly. Pure,
 * so the worker (videoDecode.worker.ts) and the tests share it.
 *
 * Times: a clip's frame timestamps are relative to the video's first presentation time `startSec`
 * (sampling.ts); sampled frame k shows the last native frame whose presentation time is
 * <= startSec + t_k (+ the 1 µs tolerance). The native frames strictly between sampled frames at
 * t_a < t_b are those shown after the one at t_a and before the one at t_b.
 */
import { TIMESTAMP_TOLERANCE_SEC } from './sampling';

/**
 * The presentation times (video time, ascending, unique) strictly between the frames shown at clip
 * times `fromSec` and `toSec`. `presentation` is any list of the video's frame times covering that
 * span (decode order is fine: it is sorted here).
 */
export function nativeTimesBetween(presentation: readonly number[], startSec: number, fromSec: number, toSec: number): number[] {
  if (!(toSec > fromSec)) return [];
  const lo = startSec + fromSec + TIMESTAMP_TOLERANCE_SEC;
  const hi = startSec + toSec + TIMESTAMP_TOLERANCE_SEC;
  const sorted = [...new Set(presentation)].sort((a, b) => a - b);
  // The frame shown at `toSec` is the last one at or before `hi`: it is a sampled frame, not between.
  let shownAtTo = -1;
  for (let i = 0; i < sorted.length && sorted[i] <= hi; i++) shownAtTo = i;
  const out: number[] = [];
  for (let i = 0; i < shownAtTo; i++) if (sorted[i] > lo) out.push(sorted[i]);
  return out;
}

/**
 * At most `max` of `items`, spread evenly and in order (the middle of each of `max` equal stretches),
 * so a propagation asked for 5 of 29 frames steps through the whole gap. `max` undefined or at least
 * the count keeps every item; 0 or less keeps none.
 */
export function thinEvenly<T>(items: readonly T[], max?: number): T[] {
  const n = items.length;
  if (max === undefined || !Number.isFinite(max) || max >= n) return [...items];
  const m = Math.floor(max);
  if (m <= 0) return [];
  const out: T[] = [];
  for (let i = 0; i < m; i++) out.push(items[Math.floor(((i + 0.5) * n) / m)]);
  return out;
}

/** A video time as clip time (from the first presentation time), to the microsecond like ownTimestamp. */
export function clipTime(videoSec: number, startSec: number): number {
  return Math.round((videoSec - startSec) * 1e6) / 1e6;
}
