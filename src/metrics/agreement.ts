import type { LabelMap } from '../masks/labelMap';
import { type CountedClip, type FrameCounts, type MiouScore, countSymmetric, scoreClips } from './spoc';

/**
 * Agreement between two label sources on one clip (two annotators, or an annotation and a
 * pseudo-label run): IoU per state frame by frame and pooled over the clip, and where they disagree.
 * Neither side is privileged: pixels that either source marks ambiguous (4), ignore (5) or void
 * (255) are left out, and a frame is compared only when both sources have it and neither ignored it.
 */

export interface AgreementFrameInput {
  map: LabelMap | null;
  ignored?: boolean;
}

export interface FrameDisputes {
  /** Compared pixels whose state (background / actionable / transformed) differs. */
  disputed: number;
  /** Pixels that are object in both sources but actionable in one and transformed in the other. */
  stateSwaps: number;
  /** Pixels that are object in one source and background in the other. */
  extentDisputes: number;
}

export interface FrameAgreement extends FrameDisputes {
  index: number;
  /** Why the frame was not compared, if it was not. */
  skipped?: 'ignored' | 'missing';
  counts: FrameCounts | null;
  /** Frame IoU per state; NaN when the state is absent from both sources or the frame was skipped. */
  act: number;
  trf: number;
  object: number;
}

export interface ClipAgreement {
  frames: FrameAgreement[];
  /** I and U summed over compared frames, then divided (clip-pooled). */
  pooled: MiouScore;
  /** Mean of the per-frame IoUs (frames where the state is absent from both left out). */
  perFrameMean: MiouScore;
  comparedFrames: number;
  totals: FrameDisputes;
}

/**
 * Disagreements follow from the counts alone: an extent dispute adds 1 to (U−I) of one state and
 * to (U−I) of the object; a state swap adds 1 to (U−I) of both states and nothing to the object's.
 */
export function disputesFromCounts(c: FrameCounts): FrameDisputes {
  const extentDisputes = c.uObj - c.iObj;
  const stateSwaps = (c.uAct - c.iAct + (c.uTrf - c.iTrf) - extentDisputes) / 2;
  return { disputed: extentDisputes + stateSwaps, stateSwaps, extentDisputes };
}

const ratio = (i: number, u: number): number => (u > 0 ? i / u : NaN);

export function frameAgreement(a: LabelMap, b: LabelMap, index = 0): FrameAgreement {
  const counts = countSymmetric(a, b);
  return {
    index,
    counts,
    act: ratio(counts.iAct, counts.uAct),
    trf: ratio(counts.iTrf, counts.uTrf),
    object: ratio(counts.iObj, counts.uObj),
    ...disputesFromCounts(counts),
  };
}

export function clipAgreement(a: readonly AgreementFrameInput[], b: readonly AgreementFrameInput[]): ClipAgreement {
  if (a.length !== b.length) throw new RangeError(`sources differ in length: ${a.length} vs ${b.length} frames`);
  const frames: FrameAgreement[] = a.map((fa, index) => {
    const fb = b[index];
    const skipped = fa.ignored || fb.ignored ? 'ignored' : !fa.map || !fb.map ? 'missing' : undefined;
    if (skipped || !fa.map || !fb.map) {
      return { index, skipped, counts: null, act: NaN, trf: NaN, object: NaN, disputed: 0, stateSwaps: 0, extentDisputes: 0 };
    }
    return frameAgreement(fa.map, fb.map, index);
  });
  // The clip-level numbers are SPOC's own aggregations over a one-clip set.
  const asClip: CountedClip = {
    id: 'agreement',
    verb: '',
    noun: '',
    subset: 'seen',
    frames: frames.map((f) => ({ counts: f.counts, missingPred: false })),
  };
  const totals: FrameDisputes = { disputed: 0, stateSwaps: 0, extentDisputes: 0 };
  for (const f of frames) {
    totals.disputed += f.disputed;
    totals.stateSwaps += f.stateSwaps;
    totals.extentDisputes += f.extentDisputes;
  }
  return {
    frames,
    pooled: scoreClips([asClip], 'clip-pooled'),
    perFrameMean: scoreClips([asClip], 'per-frame'),
    comparedFrames: frames.filter((f) => f.counts !== null).length,
    totals,
  };
}
