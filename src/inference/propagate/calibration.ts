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
 *   conf   = CALIBRATION[mode](raw) × DEPTH_DECAY[mode]^depth: a monotone (isotonic,
 *            pool-adjacent-violators) fit of measured IoU on raw, over generated propagations with
 *            exact ground truth, linearly interpolated between its steps, times a per-step decay for
 *            the chain depth (propagation steps between the frame propagated from and a person's
 *            mask: 0 when a person painted it), and never above the confidence of the frame it was
 *            propagated from (a chain does not get surer as it goes). The raw score cannot see how
 *            far a chain has drifted (small native steps drift a few pixels each at a high score), the
 *            depth can: non-decreasing in raw, non-increasing in depth. A frame whose raw score is 0
 *            (a jump that may have landed on a look-alike) shows at most AMBIGUOUS_CLAIM, a policy
 *            on top (shownTrackConfidence). Table and decay are fitted
 *            together (calibrationFit.ts; bench/propagation-accuracy.bench.ts refits and prints them).
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
  // grating, peeling and slicing demos; chains of 4 from the true map, fitted with the decay below.
  native: {
    raw: [0.0661, 0.2181, 0.3419, 0.3695, 0.4924, 0.6723, 0.9641],
    iou: [0.1196, 0.1671, 0.9645, 0.9705, 0.9746, 0.9805, 0.9963],
  },
  sampled: {
    raw: [0.0, 0.0555, 0.3772, 0.8417, 0.9429, 0.9741],
    iou: [0.6209, 0.7013, 0.9429, 0.9456, 0.9948, 0.9978],
  },
};

/**
 * The share of the expected IoU kept per step of chain depth, fitted with the tables: native steps
 * drift slowly (a few pixels a step), jumps between samples more.
 */
export const TRACK_DEPTH_DECAY: Record<TrackMode, number> = { native: 0.985, sampled: 0.935 };

/**
 * The confidence shown: calibrated for the mode and the chain depth (steps since a person's mask
 * at the frame propagated from; 0 = a person painted it), capped by the confidence of the frame
 * propagated from.
 */
export function trackConfidence(raw: number, previousConfidence = 1, mode: TrackMode = 'sampled', depth = 0): number {
  return chainConfidence(raw, previousConfidence, TRACK_CALIBRATION[mode], TRACK_DEPTH_DECAY[mode], depth);
}

/** trackConfidence with an explicit table and decay (the fit evaluates candidates with it). */
export function chainConfidence(raw: number, previousConfidence: number, table: Calibration, decay: number, depth: number): number {
  const kept = calibrate(raw, table) * Math.pow(decay, Math.max(0, depth));
  return Math.min(Math.max(0, Math.min(1, kept)), Math.min(1, Math.max(0, previousConfidence)));
}

/**
 * The most a frame with raw score 0 may claim (every group's match ambiguous, lost or re-fitted to
 * nothing). A policy on top of the calibration, not a fit: the sampled table gives such a jump
 * ~0.62, the mean of jumps that were right and jumps that landed on a look-alike (a coin toss the
 * score cannot call), and 0.62 would pass a Forward run's default threshold (0.6) onto the
 * look-alike. Below even odds, the frame is flagged and stops the run.
 */
export const AMBIGUOUS_CLAIM = 0.45;

export function capAmbiguous(raw: number, confidence: number): number {
  return raw <= 0 ? Math.min(confidence, AMBIGUOUS_CLAIM) : confidence;
}

/** The confidence a tracked frame shows: calibrated (trackConfidence), an untrusted jump capped. */
export function shownTrackConfidence(raw: number, previousConfidence = 1, mode: TrackMode = 'sampled', depth = 0): number {
  return capAmbiguous(raw, trackConfidence(raw, previousConfidence, mode, depth));
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
 * closest to the points in squared error (points with equal x pooled first, so the function has
 * one value per x). Returned as one point per pooled block, at the block's
 * mean x, so `calibrate` interpolates between block centres.
 */
export function fitIsotonic(points: readonly { x: number; y: number }[]): Calibration {
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const blocks: { sx: number; sy: number; n: number }[] = [];
  for (const p of sorted) {
    // Equal raw scores are one point of the function: pooled whatever their order.
    const last = blocks[blocks.length - 1];
    if (last && last.sx / last.n === p.x) {
      last.sx += p.x;
      last.sy += p.y;
      last.n++;
    } else blocks.push({ sx: p.x, sy: p.y, n: 1 });
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
  /** Frames claiming >= 0.9 whose IoU is below 0.8 (a chain's end drifting unflagged). */
  overclaimsUnder80: number;
}

export function calibrationError(points: readonly { confidence: number; iou: number }[], bins = 10): CalibrationError {
  const acc = Array.from({ length: bins }, () => ({ c: 0, y: 0, n: 0 }));
  let overclaims = 0;
  let overclaimsUnder80 = 0;
  for (const p of points) {
    const b = acc[Math.min(bins - 1, Math.max(0, Math.floor(p.confidence * bins)))];
    b.c += p.confidence;
    b.y += p.iou;
    b.n++;
    if (p.confidence >= 0.9 && p.iou < 0.5) overclaims++;
    if (p.confidence >= 0.9 && p.iou < 0.8) overclaimsUnder80++;
  }
  let ece = 0;
  let worstBin = 0;
  for (const b of acc) {
    if (b.n === 0) continue;
    const gap = Math.abs(b.c - b.y) / b.n;
    ece += (b.n / points.length) * gap;
    if (b.n >= 3) worstBin = Math.max(worstBin, gap);
  }
  return { ece, worstBin, overclaims, overclaimsUnder80 };
}
