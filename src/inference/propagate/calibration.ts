/**
 * The weight-free propagation's confidence, calibrated against measured IoU (docs/inference.md,
 * "Propagation without weights: confidence"). A propagated frame's confidence is meant to read as
 * "the IoU this mask probably has with the truth": 0.9 only where such frames really score about
 * 0.9.
 *
 *   raw    = area-weighted mean over the tracked groups of
 *              agreement × (1 − lost) × min(areaRatio, 1 / areaRatio) × exp(−rms / 40) × (1 − ambiguity / 2)
 *            times the confidence of the frame it was propagated from (1 for a mask a person made),
 *            since errors carry on down a chain; a group whose match had a near-equal rival
 *            (ambiguity >= 0.9: a look-alike object in the window, e.g. a second mug) scores 0;
 *   conf   = CALIBRATION[mode](raw): a monotone (isotonic, pool-adjacent-violators) fit of measured
 *            IoU on raw, over generated propagations with exact ground truth (bench/propagation-accuracy.bench.ts
 *            refits and prints it), linearly interpolated between its steps, and never above the
 *            confidence of the frame it was propagated from (a chain does not get surer as it goes).
 *            One table per mode: tracking through the clip's native frames and jumping from one sampled
 *            frame to the next fail differently (small steps drift slowly at a high raw score; one
 *            big jump is right or lands on a look-alike), so one pooled table over-claimed for one
 *            and under-claimed for the other.
 *
 * Pure: no OpenCV, no DOM.
 */
import type { GroupEvidence } from './track';

/** A match this ambiguous may have jumped to a look-alike: not trusted at all. */
export const AMBIGUOUS = 0.9;

export function rawTrackScore(groups: readonly GroupEvidence[], previousConfidence = 1): number | null {
  let wsum = 0;
  let sum = 0;
  for (const g of groups) {
    const ratio = g.areaRatio > 0 ? Math.min(g.areaRatio, 1 / g.areaRatio) : 0;
    const s = g.ambiguity >= AMBIGUOUS ? 0 : g.agreement * (1 - g.lost) * ratio * Math.exp(-g.rms / 40) * (1 - g.ambiguity / 2);
    wsum += g.area;
    sum += g.area * s;
  }
  return wsum > 0 ? (sum / wsum) * Math.min(1, Math.max(0, previousConfidence)) : null;
}

/** An increasing step function: at raw[i] the calibrated value is iou[i]. */
export interface Calibration {
  raw: readonly number[];
  iou: readonly number[];
}

/** How a frame was reached: through the native frames between two samples, or in one jump. */
export type TrackMode = 'native' | 'sampled';

/** Fitted by `PROP_FIT=1 npm run bench propagation-accuracy` on its training scenes; see docs/inference.md for the figures. */
export const TRACK_CALIBRATION: Record<TrackMode, Calibration> = {
  // 88 training frames each: 16 carried cups at 0.5-1.6 cup widths per second, two each of the
  // grating, peeling and slicing demos; chains of 4 from the true map.
  native: {
    raw: [0.2182, 0.3442, 0.3998, 0.5081, 0.6732, 0.8948, 0.9641],
    iou: [0.1621, 0.7415, 0.949, 0.9516, 0.9595, 0.9668, 0.9963],
  },
  sampled: {
    raw: [0.0, 0.0283, 0.4173, 0.9741],
    iou: [0.3589, 0.677, 0.8482, 0.9978],
  },
};

/** The confidence shown: calibrated for the mode, capped by the confidence of the frame propagated from. */
export function trackConfidence(raw: number, previousConfidence = 1, mode: TrackMode = 'sampled'): number {
  return Math.min(calibrate(raw, TRACK_CALIBRATION[mode]), Math.min(1, Math.max(0, previousConfidence)));
}

/** The calibrated confidence of a raw score: linear between the table's points, flat beyond its ends. */
export function calibrate(raw: number, table: Calibration): number {
  const { raw: xs, iou: ys } = table;
  if (xs.length === 0) return raw;
  if (raw <= xs[0]) return ys[0];
  for (let i = 1; i < xs.length; i++) {
    if (raw <= xs[i]) {
      const t = xs[i] === xs[i - 1] ? 1 : (raw - xs[i - 1]) / (xs[i] - xs[i - 1]);
      return ys[i - 1] + t * (ys[i] - ys[i - 1]);
    }
  }
  return ys[ys.length - 1];
}

/**
 * Isotonic regression of y on x (pool adjacent violators): the non-decreasing step function
 * closest to the points in squared error. Returned as one point per pooled block, at the block's
 * mean x, so `calibrate` interpolates between block centres.
 */
export function fitIsotonic(points: readonly { x: number; y: number }[]): Calibration {
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const blocks: { sx: number; sy: number; n: number }[] = [];
  for (const p of sorted) {
    blocks.push({ sx: p.x, sy: p.y, n: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a.sy / a.n <= b.sy / b.n) break;
      blocks.pop();
      a.sx += b.sx;
      a.sy += b.sy;
      a.n += b.n;
    }
  }
  return { raw: blocks.map((b) => b.sx / b.n), iou: blocks.map((b) => b.sy / b.n) };
}

export interface CalibrationError {
  /** Expected calibration error: sum over confidence bins of (share of frames) × |mean confidence − mean IoU|. */
  ece: number;
  /** The largest |mean confidence − mean IoU| of a bin holding at least 3 frames. */
  worstBin: number;
  /** Frames claiming >= 0.9 whose IoU is below 0.5 (the failure users saw). */
  overclaims: number;
}

export function calibrationError(points: readonly { confidence: number; iou: number }[], bins = 10): CalibrationError {
  const acc = Array.from({ length: bins }, () => ({ c: 0, y: 0, n: 0 }));
  let overclaims = 0;
  for (const p of points) {
    const b = acc[Math.min(bins - 1, Math.max(0, Math.floor(p.confidence * bins)))];
    b.c += p.confidence;
    b.y += p.iou;
    b.n++;
    if (p.confidence >= 0.9 && p.iou < 0.5) overclaims++;
  }
  let ece = 0;
  let worstBin = 0;
  for (const b of acc) {
    if (b.n === 0) continue;
    const gap = Math.abs(b.c - b.y) / b.n;
    ece += (b.n / points.length) * gap;
    if (b.n >= 3) worstBin = Math.max(worstBin, gap);
  }
  return { ece, worstBin, overclaims };
}
