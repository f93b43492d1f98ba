import { nanMean } from './statistics';

/**
 * Spatio-temporal grounding metrics (VidSTG / HC-STVG / ToG-Bench style), following TubeDETR
 * `datasets/vidstg_eval.py`: temporal IoU of the predicted moment, vIoU of the predicted tube, the
 * mean box IoU over ground-truth frames, and R1@theta.
 *
 * Deliberate differences from TubeDETR:
 * - The union for vIoU is [min start, max end). TubeDETR writes `max_end = min(gt_end, pred_end)`,
 *   shrinking the union to end at the earlier of the two ends and inflating vIoU.
 * - Every threshold is applied with >= (a query with tIoU exactly 0.5 counts for R1@0.5), the
 *   moment-retrieval convention; TubeDETR's vIoU@R uses a strict >. Results differ only for values
 *   exactly equal to a threshold.
 * - Frames are integers in [start, end); TubeDETR counts only the frames it sampled at its fps.
 *   Pass intervals in sampled-frame units to reproduce that.
 */

/** Frames [start, end), integers; end > start for a non-empty moment. */
export interface Interval {
  start: number;
  end: number;
}

/** Box corners [x1, y1, x2, y2] in continuous pixel coordinates (area = (x2-x1)(y2-y1), no +1). */
export type BoxXYXY = readonly [number, number, number, number];

export function xywhToXyxy([x, y, w, h]: readonly [number, number, number, number]): BoxXYXY {
  return [x, y, x + w, y + h];
}

export function intervalLength(i: Interval): number {
  return Math.max(0, i.end - i.start);
}

/** tIoU = |gt ∩ pred| / (|gt| + |pred| − |gt ∩ pred|); 0 when they do not overlap. */
export function temporalIoU(gt: Interval, pred: Interval): number {
  const inter = Math.min(gt.end, pred.end) - Math.max(gt.start, pred.start);
  if (inter <= 0) return 0;
  return inter / (intervalLength(gt) + intervalLength(pred) - inter);
}

/** Box IoU (torchvision box_iou); 0 when the union has no area. */
export function boxIoU(a: BoxXYXY, b: BoxXYXY): number {
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const inter = iw > 0 && ih > 0 ? iw * ih : 0;
  const areaA = Math.max(0, a[2] - a[0]) * Math.max(0, a[3] - a[1]);
  const areaB = Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
  const union = areaA + areaB - inter;
  return union > 0 ? inter / union : 0;
}

/** Boxes by frame number; a frame without a box has none. */
export type BoxTrack = ReadonlyMap<number, BoxXYXY>;

export interface GroundingQuery {
  id?: string;
  gt: { interval: Interval; boxes: BoxTrack };
  pred: { interval: Interval; boxes: BoxTrack };
}

export interface GroundingResult {
  id?: string;
  tIoU: number;
  /** Σ box IoU over frames in gt ∩ pred, divided by |gt ∪ pred| (the span [min start, max end)). */
  vIoU: number;
  /** Mean box IoU over all GT frames (TubeDETR gt_viou): spatial quality given the true moment. */
  gtIoU: number;
}

/**
 * Box IoU at frame t, or 0 when either side has no box there. TubeDETR raises when a frame of the
 * GT tube has no predicted box; here the frame simply scores 0.
 */
function frameIoU(q: GroundingQuery, t: number): number {
  const g = q.gt.boxes.get(t);
  const p = q.pred.boxes.get(t);
  return g && p ? boxIoU(g, p) : 0;
}

export function evaluateGrounding(q: GroundingQuery): GroundingResult {
  const gt = q.gt.interval;
  const pred = q.pred.interval;
  const tIoU = temporalIoU(gt, pred);
  let inter = 0;
  for (let t = Math.max(gt.start, pred.start); t < Math.min(gt.end, pred.end); t++) inter += frameIoU(q, t);
  const unionLength = Math.max(gt.end, pred.end) - Math.min(gt.start, pred.start);
  const vIoU = unionLength > 0 ? inter / unionLength : 0;
  let sum = 0;
  for (let t = gt.start; t < gt.end; t++) sum += frameIoU(q, t);
  const gtLength = intervalLength(gt);
  return { id: q.id, tIoU, vIoU, gtIoU: gtLength > 0 ? sum / gtLength : NaN };
}

/** Default thresholds for R1@theta. */
export const RECALL_THRESHOLDS = [0.3, 0.5, 0.7] as const;

/** Share of values >= each threshold (NaN values left out), keyed by threshold. */
export function recallAtThresholds(values: readonly number[], thresholds: readonly number[] = RECALL_THRESHOLDS): Record<number, number> {
  const xs = values.filter((v) => !Number.isNaN(v));
  const out: Record<number, number> = {};
  for (const th of thresholds) out[th] = xs.length === 0 ? NaN : xs.filter((v) => v >= th).length / xs.length;
  return out;
}

export interface GroundingSummary {
  queries: number;
  mTIoU: number;
  mVIoU: number;
  mGtIoU: number;
  /** R1@theta on tIoU (temporal grounding). */
  r1: Record<number, number>;
  /** vIoU@theta (spatio-temporal grounding). */
  vIoUAt: Record<number, number>;
}

export function summarizeGrounding(results: readonly GroundingResult[], thresholds: readonly number[] = RECALL_THRESHOLDS): GroundingSummary {
  return {
    queries: results.length,
    mTIoU: nanMean(results.map((r) => r.tIoU)),
    mVIoU: nanMean(results.map((r) => r.vIoU)),
    mGtIoU: nanMean(results.map((r) => r.gtIoU)),
    r1: recallAtThresholds(results.map((r) => r.tIoU), thresholds),
    vIoUAt: recallAtThresholds(results.map((r) => r.vIoU), thresholds),
  };
}
