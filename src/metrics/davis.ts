import type { BinaryMask } from './binaryMask';
import { DAVIS_BOUND_TH, boundaryF } from './boundary';
import { jaccard } from './jaccard';
import { type SequenceStatistics, sequenceStatistics } from './statistics';

/** One frame's DAVIS scores; jf = (J + F) / 2. */
export interface FrameJF {
  j: number;
  f: number;
  jf: number;
}

/** J and F of one binary frame; the void mask is applied to both (davis2017 evaluation.py). */
export function jAndF(gt: BinaryMask, pred: BinaryMask, voidMask?: BinaryMask, boundTh: number = DAVIS_BOUND_TH): FrameJF {
  const j = jaccard(gt, pred, voidMask);
  const f = boundaryF(gt, pred, voidMask, boundTh).f;
  return { j, f, jf: (j + f) / 2 };
}

export interface SequenceJF {
  j: SequenceStatistics;
  f: SequenceStatistics;
  /** (J mean + F mean) / 2, the headline DAVIS number. */
  jfMean: number;
  perFrame: FrameJF[];
}

/**
 * One object over a sequence: per-frame J and F, then mean / recall / decay of each
 * (davis2017 `DAVISEvaluation.evaluate` for one object). Frames are scored in the order given.
 */
export function evaluateSequence(
  frames: readonly { gt: BinaryMask; pred: BinaryMask; void?: BinaryMask }[],
  boundTh: number = DAVIS_BOUND_TH,
): SequenceJF {
  const perFrame = frames.map((fr) => jAndF(fr.gt, fr.pred, fr.void, boundTh));
  const j = sequenceStatistics(perFrame.map((s) => s.j));
  const f = sequenceStatistics(perFrame.map((s) => s.f));
  return { j, f, jfMean: (j.mean + f.mean) / 2, perFrame };
}
