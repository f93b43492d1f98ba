/** Which sampled frame is nearest a moment of the source video (watch mode). Pure. */

/** Index of the frame whose timestamp is nearest `clipSec` (the earlier on a tie); -1 without frames. `times` ascending. */
export function nearestFrameIndex(times: readonly number[], clipSec: number): number {
  if (times.length === 0) return -1;
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < clipSec) lo = mid + 1;
    else hi = mid;
  }
  // lo: first time >= clipSec (or the last). The one before may be nearer.
  if (lo > 0 && clipSec - times[lo - 1] <= times[lo] - clipSec) return lo - 1;
  return lo;
}

/** "12.34 s". */
export function formatSeconds(sec: number): string {
  return `${sec.toFixed(2)} s`;
}
