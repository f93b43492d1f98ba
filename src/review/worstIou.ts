/**
 * Frames of a clip ranked by how badly a prediction agrees with the ground truth, worst first, so a
 * reviewer can jump from one bad frame to the next. Pure: the counts come from src/metrics
 * (countFrame / countsFromAreas via countProject); this module only ranks them.
 *
 * Ranking rules (docs/review.md, "Worst IoU"):
 * - the key is the IoU of the actionable state, of the transformed state, or their mean; a state
 *   absent from both gt and prediction on a frame has no IoU there (0/0), and the mean is the mean
 *   of the states that have one (SPOC averages per state the same way: an absent state is not a
 *   perfect 1, it is not scored);
 * - frames with no value for the key — both sides empty in that state (or in both, for the mean) —
 *   have nothing to get wrong: they rank after every scored frame;
 * - ignored frames are not scored at all and are left out of the list;
 * - ties, and the unscored frames among themselves, go by frame index.
 */
import { frameIoUs } from '../metrics/panels/compareCounts';
import type { FrameCounts } from '../metrics/spoc';
import { nanMean } from '../metrics/statistics';

export type IouKey = 'mean' | 'act' | 'trf';

export interface FrameIou {
  frameIndex: number;
  act: number;
  trf: number;
  /** Mean of the defined state IoUs; NaN when neither state is present on either side. */
  mean: number;
}

/** IoUs per frame from per-frame counts (null = ignored frame, left out). */
export function frameIouRows(counts: readonly (FrameCounts | null | undefined)[]): FrameIou[] {
  const out: FrameIou[] = [];
  counts.forEach((c, frameIndex) => {
    if (!c) return;
    const { act, trf } = frameIoUs(c);
    out.push({ frameIndex, act, trf, mean: nanMean([act, trf]) });
  });
  return out;
}

/** Frames ordered worst first by `key` (see the module comment for unscored frames and ties). */
export function rankByWorstIou(rows: readonly FrameIou[], key: IouKey): FrameIou[] {
  return rows.slice().sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn !== yn) return xn ? 1 : -1;
    if (!xn && x !== y) return x - y;
    return a.frameIndex - b.frameIndex;
  });
}

/**
 * The next frame to look at after `current` in a ranking: the entry after current's position
 * (wrapping from the last to the worst), or the worst one when current is not in the list.
 * `step` -1 goes back towards the worst (from outside the list: to the last). Null for an empty
 * ranking. Callers pass the scored frames only: jumping to a frame with nothing on it helps nobody.
 */
export function nextInRanking(ranked: readonly FrameIou[], current: number, step: 1 | -1 = 1): number | null {
  if (ranked.length === 0) return null;
  const at = ranked.findIndex((r) => r.frameIndex === current);
  if (at < 0) return ranked[step === 1 ? 0 : ranked.length - 1].frameIndex;
  return ranked[(at + step + ranked.length) % ranked.length].frameIndex;
}
