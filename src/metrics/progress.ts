import type { LabelMap } from '../masks/labelMap';
import { LABEL } from '../masks/labelMap';
import type { EvalClip } from './spoc';
import { wordView } from './binaryMask';
import { nanMean } from './statistics';

/**
 * SPOC progress curves. The reward at frame t is R_t = A_act / (A_act ∪ A_trf): the share of the
 * object that is still actionable. An ideal curve starts at 1, falls to 0 and stays flat once the
 * change is done. Curves are judged by Kendall's tau against time (want strongly negative) and by
 * their spread and magnitude over the ground-truth end-state frames (want 0).
 */

export interface StateAreas {
  act: number;
  trf: number;
}

/** Pixel areas of the two states in a label map (a pixel holds one label, so the union is act + trf). */
export function stateAreas(map: LabelMap): StateAreas {
  const d = map.data;
  let act = 0;
  let trf = 0;
  // Background words (four pixels) are skipped in one test: masks are mostly background.
  const words = wordView(d);
  let i = 0;
  if (words) {
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) continue;
      for (let b = w << 2, end = b + 4; b < end; b++) {
        const v = d[b];
        if (v === LABEL.actionable) act++;
        else if (v === LABEL.transformed) trf++;
      }
    }
    i = words.length << 2;
  }
  for (; i < d.length; i++) {
    const v = d[i];
    if (v === LABEL.actionable) act++;
    else if (v === LABEL.transformed) trf++;
  }
  return { act, trf };
}

/**
 * R = act / (act + trf). When neither state is visible the ratio says nothing about progress, so
 * it is NaN; every statistic below skips NaN points (it does not read them as 0 or 1).
 */
export function progressRatio(areas: StateAreas): number {
  const total = areas.act + areas.trf;
  return total === 0 ? NaN : areas.act / total;
}

/** R_t for a sequence of label maps; a missing map (null) gives NaN. */
export function progressCurve(maps: readonly (LabelMap | null)[]): number[] {
  return maps.map((m) => (m ? progressRatio(stateAreas(m)) : NaN));
}

/**
 * Kendall's tau as SPOC defines it: over all pairs i < j of defined points,
 * (pairs with R_j > R_i − pairs with R_j <= R_i) / number of pairs.
 * Ties count as non-increasing, which is what makes a curve that flattens at 0 still score -1.
 * This is not tau-b (scipy.stats.kendalltau), which drops ties from the numerator and rescales.
 * NaN points are skipped (their pairs do not exist); fewer than two defined points gives NaN.
 */
export function kendallTau(values: readonly number[]): number {
  const xs = values.filter((v) => !Number.isNaN(v));
  const n = xs.length;
  if (n < 2) return NaN;
  let increasing = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) if (xs[j] > xs[i]) increasing++;
  }
  const pairs = (n * (n - 1)) / 2;
  return (increasing - (pairs - increasing)) / pairs;
}

export interface EndStateStats {
  /** Number of defined end-state points. */
  n: number;
  /** end_sigma: population standard deviation (numpy np.std, ddof = 0). The app reports this. */
  sigma: number;
  /** Sample standard deviation (ddof = 1); NaN for n < 2. */
  sigmaSample: number;
  /** end_l2: Euclidean norm sqrt(Σ R²). The app reports this, matching the metric's name. */
  l2: number;
  /** sqrt(Σ R² / n): the L2 norm normalised by length, comparable across clips of any length. */
  rms: number;
}

/** Spread and magnitude of a curve over end-state points (NaN skipped); all NaN when none is left. */
export function endStateStats(values: readonly number[]): EndStateStats {
  const xs = values.filter((v) => !Number.isNaN(v));
  const n = xs.length;
  if (n === 0) return { n, sigma: NaN, sigmaSample: NaN, l2: NaN, rms: NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const ss = xs.reduce((a, b) => a + (b - mean) * (b - mean), 0);
  const sq = xs.reduce((a, b) => a + b * b, 0);
  return {
    n,
    sigma: Math.sqrt(ss / n),
    sigmaSample: n < 2 ? NaN : Math.sqrt(ss / (n - 1)),
    l2: Math.sqrt(sq),
    rms: Math.sqrt(sq / n),
  };
}

export interface ClipProgress {
  id: string;
  verb: string;
  /** R_t for every frame of the clip (NaN where undefined, skipped or ignored). */
  curve: number[];
  tau: number;
  end: EndStateStats;
}

export interface ClipProgressOptions {
  /** Whose areas make the curve: the prediction (default) or the ground truth. */
  source?: 'pred' | 'gt';
  /**
   * Ignored frames are excluded from evaluation everywhere else, so by default they are NaN here
   * too; set true to keep the prediction's value on them (a curve plotted for its own sake).
   */
  includeIgnored?: boolean;
}

/**
 * Progress curve of one clip, its Kendall tau over all frames and its end-state statistics over the
 * frames whose ground-truth phase is 'end'. A missing prediction is an empty one, so R is NaN there.
 */
export function clipProgress(clip: EvalClip, options: ClipProgressOptions = {}): ClipProgress {
  const source = options.source ?? 'pred';
  const curve = clip.frames.map((f) => {
    if (f.ignored && !options.includeIgnored) return NaN;
    const map = source === 'pred' ? f.pred : f.gt;
    return map ? progressRatio(stateAreas(map)) : NaN;
  });
  const endValues = curve.filter((_, i) => clip.frames[i].phase === 'end');
  return { id: clip.id, verb: clip.verb, curve, tau: kendallTau(curve), end: endStateStats(endValues) };
}

export interface ProgressSummary {
  clips: number;
  /** Means over clips, NaN clip values skipped. */
  tau: number;
  endSigma: number;
  endL2: number;
  endRms: number;
}

export function summarizeProgress(results: readonly ClipProgress[]): ProgressSummary {
  return {
    clips: results.length,
    tau: nanMean(results.map((r) => r.tau)),
    endSigma: nanMean(results.map((r) => r.end.sigma)),
    endL2: nanMean(results.map((r) => r.end.l2)),
    endRms: nanMean(results.map((r) => r.end.rms)),
  };
}
