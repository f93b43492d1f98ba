/**
 * Per-object video object segmentation scores as davis2017-evaluation computes them
 * (`evaluation.py` DAVISEvaluation, `utils.py` db_statistics), on multi-object label maps whose
 * value is the object id (0 background, 255 void). docs/metrics.md "Per-object VOS" has the rules.
 *
 * - semi-supervised: object k of the prediction is scored against object k of the GT; the number of
 *   objects is the largest id of the GT's first frame; the caller leaves out the first and the last
 *   frame; void is not excluded (the reference passes no void mask there, so a GT 255 pixel is
 *   background).
 * - unsupervised: every predicted object against every GT object, void excluded; predicted objects
 *   are padded with empty ones up to the GT's count, and the assignment maximising the mean of
 *   (mean J + mean F)/2 over pairs is scipy's linear_sum_assignment (linearSumAssignment.ts). Row k
 *   of the result is the k-th assigned pair in order of predicted id, as in the reference.
 * Per-frame J and F are the repo's exact ports (jaccard.ts, boundary.ts); means are numpy's
 * pairwise sums (numpySum.ts).
 */
import type { LabelMap } from '../masks/labelMap';
import { type BinaryMask, emptyMask } from './binaryMask';
import { DAVIS_BOUND_TH } from './boundary';
import { jAndF } from './davis';
import { linearSumAssignment } from './linearSumAssignment';
import { npMean, npNanMean } from './numpySum';
import { decayBinEdges, recallAbove } from './statistics';

export type VosProtocol = 'semi-supervised' | 'unsupervised';
export const VOS_PROTOCOLS: readonly VosProtocol[] = ['semi-supervised', 'unsupervised'];
/** davis2017 `_evaluate_unsupervised(max_n_proposals=20)`. */
export const MAX_UNSUPERVISED_OBJECTS = 20;
export const VOS_VOID = 255;

export interface VosStatistics {
  mean: number;
  recall: number;
  decay: number;
}

/**
 * db_statistics: M = nanmean, O = share of values > 0.5, D = nanmean(bin 0) - nanmean(bin 3).
 * Default: integer bin edges (statistics.ts, the documented deliberate difference). `davisCompat`:
 * the reference's edges cast to uint8 (wrapping modulo 256 beyond 256 frames) and its slice end
 * `ids[k+1] + 1` computed in uint8 as numpy >= 2 does (255 + 1 = 0), so bins may come out empty
 * and D NaN exactly where the reference's does. Recall counts NaN as a miss in compat mode
 * (`nanmean(v > 0.5)`); J and F are never NaN here, so both modes agree on it.
 */
export function vosStatistics(values: ArrayLike<number>, davisCompat = false): VosStatistics {
  const n = values.length;
  const mean = npNanMean(values);
  let recall: number;
  if (davisCompat) {
    let hits = 0;
    for (let i = 0; i < n; i++) if (values[i] > 0.5) hits++;
    recall = hits / n;
  } else recall = recallAbove(values);
  const bin = (start: number, endInclusive: number, compatEnd: boolean): number => {
    const end = Math.min(n, compatEnd ? (endInclusive + 1) & 0xff : endInclusive + 1);
    return end > start ? npNanMean(values, start, end) : NaN;
  };
  let decay: number;
  if (n === 0) decay = NaN;
  else if (davisCompat) {
    const ids = uint8DecayEdges(n);
    decay = bin(ids[0], ids[1], true) - bin(ids[3], ids[4], true);
  } else {
    const ids = decayBinEdges(n);
    decay = bin(ids[0], ids[1], false) - bin(ids[3], ids[4], false);
  }
  return { mean, recall, decay };
}

/** `(np.round(np.linspace(1, n, 5) + 1e-10) - 1).astype(np.uint8)`: the integer edges modulo 256. */
export function uint8DecayEdges(n: number): number[] {
  return decayBinEdges(n).map((e) => ((e % 256) + 256) % 256);
}

/** One object's row of the result. */
export interface VosObjectResult {
  /** GT object id (1-based). */
  gtId: number;
  /** Predicted object id scored against it (semi-supervised: the same id; unsupervised: the assigned one, possibly a padded empty object). */
  predId: number;
  /** Per scored frame. */
  j: Float64Array;
  f: Float64Array;
  jStats: VosStatistics;
  fStats: VosStatistics;
}

/** Largest object id of a GT label map, void not counted (davis.py get_all_masks on the first frame). */
export function objectCount(map: LabelMap): number {
  let max = 0;
  const d = map.data;
  for (let i = 0; i < d.length; i++) if (d[i] !== VOS_VOID && d[i] > max) max = d[i];
  return max;
}

/** Largest value of a prediction label map; every value, 255 included, is an object id there (results.py). */
export function largestId(map: LabelMap): number {
  let max = 0;
  const d = map.data;
  for (let i = 0; i < d.length; i++) if (d[i] > max) max = d[i];
  return max;
}

/** Binary masks of ids 1..count, built in one pass; null for an id without pixels. */
function objectMasks(map: LabelMap, count: number): (BinaryMask | null)[] {
  const masks: (BinaryMask | null)[] = Array.from({ length: count + 1 }, () => null);
  const d = map.data;
  for (let i = 0; i < d.length; i++) {
    const v = d[i];
    if (v === 0 || v > count) continue;
    let m = masks[v];
    if (!m) m = masks[v] = emptyMask(map.width, map.height);
    m.data[i] = 1;
  }
  return masks;
}

/**
 * Scores one sequence frame by frame (frames are fed in order and dropped; only numbers are kept),
 * then gives per-object rows. `gtObjects` comes from the GT's first frame.
 */
export class VosSequenceScorer {
  private readonly frames: number[] = [];
  /** Per frame: J and F of (pred id p, gt id g) at [p][g], p = 0 standing for "no pixels". */
  private readonly jRows: Float64Array[][] = [];
  private readonly fRows: Float64Array[][] = [];
  private maxPredId = 0;

  constructor(
    readonly protocol: VosProtocol,
    readonly gtObjects: number,
    readonly boundTh: number = DAVIS_BOUND_TH,
  ) {}

  /** Predicted ids seen so far (the reference counts up to the largest value of any scored frame). */
  get predictedObjects(): number {
    return this.maxPredId;
  }

  /** The caller has checked the prediction's ids (semi-supervised: ≤ gtObjects; unsupervised: ≤ 20). */
  addFrame(gt: LabelMap, pred: LabelMap): void {
    const nGt = this.gtObjects;
    const semi = this.protocol === 'semi-supervised';
    const predMax = largestId(pred);
    if (predMax > this.maxPredId) this.maxPredId = predMax;
    const gtMasks = objectMasks(gt, nGt);
    const nPred = semi ? nGt : predMax;
    const predMasks = objectMasks(pred, nPred);
    const voidMask = semi ? undefined : objectVoid(gt);
    const empty = emptyMask(gt.width, gt.height);
    const jRow: Float64Array[] = [];
    const fRow: Float64Array[] = [];
    for (let p = 0; p <= nPred; p++) {
      // p = 0: an object absent from this frame (scored once per GT object).
      if (p > 0 && !predMasks[p]) continue;
      const js = new Float64Array(nGt + 1);
      const fs = new Float64Array(nGt + 1);
      for (let g = 1; g <= nGt; g++) {
        if (semi && p !== 0 && p !== g) continue;
        const s = jAndF(gtMasks[g] ?? empty, predMasks[p] ?? empty, voidMask, this.boundTh);
        js[g] = s.j;
        fs[g] = s.f;
      }
      jRow[p] = js;
      fRow[p] = fs;
    }
    this.jRows.push(jRow);
    this.fRows.push(fRow);
    this.frames.push(this.frames.length);
  }

  /** J (or F) of predicted id p against GT id g on every frame fed. */
  private series(rows: Float64Array[][], p: number, g: number): Float64Array {
    const out = new Float64Array(rows.length);
    for (let t = 0; t < rows.length; t++) out[t] = (rows[t][p] ?? rows[t][0])[g];
    return out;
  }

  /** Per-object rows in the reference's order. */
  finish(davisCompat = false): VosObjectResult[] {
    const nGt = this.gtObjects;
    const row = (gtId: number, predId: number): VosObjectResult => {
      const j = this.series(this.jRows, predId, gtId);
      const f = this.series(this.fRows, predId, gtId);
      return { gtId, predId, j, f, jStats: vosStatistics(j, davisCompat), fStats: vosStatistics(f, davisCompat) };
    };
    if (this.protocol === 'semi-supervised') return Array.from({ length: nGt }, (_, k) => row(k + 1, k + 1));
    if (nGt === 0) return [];
    // Missing predicted objects are padded with empty ones up to the GT's count.
    const nPred = Math.max(this.maxPredId, nGt);
    const cost: number[][] = [];
    for (let p = 1; p <= nPred; p++) {
      const line: number[] = [];
      for (let g = 1; g <= nGt; g++) {
        line.push((npMean(this.series(this.jRows, p, g)) + npMean(this.series(this.fRows, p, g))) / 2);
      }
      cost.push(line);
    }
    const { rows, cols } = linearSumAssignment(cost, true);
    return rows.map((r, k) => row(cols[k] + 1, r + 1));
  }
}

function objectVoid(gt: LabelMap): BinaryMask {
  const out = emptyMask(gt.width, gt.height);
  const d = gt.data;
  for (let i = 0; i < d.length; i++) if (d[i] === VOS_VOID) out.data[i] = 1;
  return out;
}

/** The global table's numbers: means over every object of every sequence (evaluation_method.py). */
export interface VosGlobal {
  jfMean: number;
  jMean: number;
  jRecall: number;
  jDecay: number;
  fMean: number;
  fRecall: number;
  fDecay: number;
}

export function vosGlobal(objects: readonly Pick<VosObjectResult, 'jStats' | 'fStats'>[]): VosGlobal {
  const col = (pick: (o: Pick<VosObjectResult, 'jStats' | 'fStats'>) => number): number => npMean(objects.map(pick));
  const jMean = col((o) => o.jStats.mean);
  const fMean = col((o) => o.fStats.mean);
  return {
    jfMean: (jMean + fMean) / 2,
    jMean,
    jRecall: col((o) => o.jStats.recall),
    jDecay: col((o) => o.jStats.decay),
    fMean,
    fRecall: col((o) => o.fStats.recall),
    fDecay: col((o) => o.fStats.decay),
  };
}
