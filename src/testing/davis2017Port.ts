/**
 * A literal port of davis2017-evaluation (davisvideochallenge/davis2017-evaluation, davis2017/*.py
 * and evaluation_method.py), written as the Python reads, array by array, for the tests to compare
 * the real implementations against. Nothing here is fast or clever on purpose:
 * - db_eval_iou and f_measure / _seg2bmap with a disk dilation (cv2.dilate with skimage disk(r));
 * - db_statistics with the uint8 bin edges (numpy >= 2: `ids[i + 1] + 1` stays uint8), and numpy's
 *   nanmean as a plain sum (so comparisons allow 1e-12, not bit equality);
 * - DAVISEvaluation.evaluate: get_all_masks (void 255 set apart, object count from the first frame),
 *   the semi-supervised [1:-1] slice, Results.read_masks (object count = largest value), zero
 *   padding, all-pairs scoring and linear_sum_assignment (ours, standing in for scipy's, which the
 *   reference imports), then the global mean and the `<seq>_<k>` rows.
 */
import type { BinaryMask } from '../metrics/binaryMask';
import { boundaryRadius } from '../metrics/boundary';
import { linearSumAssignment } from '../metrics/linearSumAssignment';
import type { LabelMap } from '../masks/labelMap';

/** davis2017 f_measure: seg2bmap, disk dilation, intersections (void removed from both first). */
export function portFMeasure(gt: BinaryMask, pred: BinaryMask, voidMask: BinaryMask | undefined, r: number): number {
  const { width: w, height: h } = gt;
  const clean = (m: BinaryMask): Uint8Array => m.data.map((x, i) => (x !== 0 && (!voidMask || voidMask.data[i] === 0) ? 1 : 0));
  const seg2bmap = (s: Uint8Array): Uint8Array => {
    const at = (y: number, x: number): number => (y < h && x < w ? s[y * w + x] : 0);
    const b = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const v = at(y, x);
        if (y === h - 1 && x === w - 1) b[y * w + x] = 0;
        else if (y === h - 1) b[y * w + x] = v ^ at(y, x + 1);
        else if (x === w - 1) b[y * w + x] = v ^ at(y + 1, x);
        else b[y * w + x] = (v ^ at(y, x + 1)) | (v ^ at(y + 1, x)) | (v ^ at(y + 1, x + 1));
      }
    }
    return b;
  };
  const dilate = (b: Uint8Array): Uint8Array => {
    const out = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        search: for (let dy = -r; dy <= r; dy++) {
          for (let dx = -r; dx <= r; dx++) {
            if (dy * dy + dx * dx > r * r) continue;
            const yy = y + dy;
            const xx = x + dx;
            if (yy >= 0 && yy < h && xx >= 0 && xx < w && b[yy * w + xx]) {
              out[y * w + x] = 1;
              break search;
            }
          }
        }
      }
    }
    return out;
  };
  const fgB = seg2bmap(clean(pred));
  const gtB = seg2bmap(clean(gt));
  const fgD = dilate(fgB);
  const gtD = dilate(gtB);
  let nFg = 0;
  let nGt = 0;
  let fgMatch = 0;
  let gtMatch = 0;
  for (let i = 0; i < w * h; i++) {
    nFg += fgB[i];
    nGt += gtB[i];
    fgMatch += fgB[i] & gtD[i];
    gtMatch += gtB[i] & fgD[i];
  }
  let p: number;
  let rc: number;
  if (nFg === 0 && nGt > 0) [p, rc] = [1, 0];
  else if (nFg > 0 && nGt === 0) [p, rc] = [0, 1];
  else if (nFg === 0 && nGt === 0) [p, rc] = [1, 1];
  else [p, rc] = [fgMatch / nFg, gtMatch / nGt];
  return p + rc === 0 ? 0 : (2 * p * rc) / (p + rc);
}

/** davis2017 db_eval_iou for one frame. */
export function portIou(gt: BinaryMask, pred: BinaryMask, voidMask?: BinaryMask): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < gt.data.length; i++) {
    if (voidMask && voidMask.data[i]) continue;
    const a = gt.data[i] !== 0;
    const b = pred.data[i] !== 0;
    if (a && b) inter++;
    if (a || b) union++;
  }
  return union === 0 ? 1 : inter / union;
}

const mean = (v: readonly number[]): number => {
  const kept = v.filter((x) => !Number.isNaN(x));
  return kept.length === 0 ? NaN : kept.reduce((s, x) => s + x, 0) / kept.length;
};

/** utils.db_statistics; `integerEdges` drops the uint8 cast (this repo's default). */
export function portDbStatistics(v: readonly number[], integerEdges = false): [number, number, number] {
  const M = mean(v);
  const O = v.length === 0 ? NaN : v.filter((x) => x > 0.5).length / v.length;
  const ids: number[] = [];
  for (let k = 0; k <= 4; k++) {
    const lin = k === 4 ? v.length : 1 + k * ((v.length - 1) / 4);
    let id = Math.round(lin + 1e-10) - 1;
    if (!integerEdges) id = ((id % 256) + 256) % 256;
    ids.push(id);
  }
  const slice = (i: number): number[] => v.slice(ids[i], integerEdges ? ids[i + 1] + 1 : (ids[i + 1] + 1) % 256);
  return [M, O, mean(slice(0)) - mean(slice(3))];
}

export interface PortSequence {
  name: string;
  /** GT label maps in frame order, and their frame ids. */
  gt: readonly LabelMap[];
  ids: readonly string[];
  /** Result label maps by frame id. */
  res: ReadonlyMap<string, LabelMap>;
}

export interface PortResult {
  global: number[];
  perSequence: { name: string; jMean: number; fMean: number }[];
  objects: { J: [number, number, number]; F: [number, number, number] }[];
}

const largest = (m: LabelMap): number => m.data.reduce((top, v) => (v > top ? v : top), 0);
const binary = (m: LabelMap, k: number): BinaryMask => ({ width: m.width, height: m.height, data: m.data.map((v) => (v === k ? 1 : 0)) });

/** DAVISEvaluation(task).evaluate(results) followed by evaluation_method.py's tables. */
export function portEvaluate(task: 'semi-supervised' | 'unsupervised', sequences: readonly PortSequence[], integerEdges = false): PortResult {
  const JM: number[] = [];
  const JR: number[] = [];
  const JD: number[] = [];
  const FM: number[] = [];
  const FR: number[] = [];
  const FD: number[] = [];
  const perSequence: PortResult['perSequence'] = [];
  const objects: PortResult['objects'] = [];
  for (const seq of sequences) {
    // get_all_masks(seq, True): void apart, set to 0, objects 1..max(first frame).
    const voids = seq.gt.map((m) => binary(m, 255));
    const cleaned = seq.gt.map((m) => ({ ...m, data: m.data.map((v) => (v === 255 ? 0 : v)) }));
    const numObjects = largest(cleaned[0]);
    let gtFrames = cleaned;
    let ids = seq.ids;
    if (task === 'semi-supervised') {
      gtFrames = cleaned.slice(1, -1);
      ids = ids.slice(1, -1);
    }
    // results.read_masks(seq, ids): object count = largest value over the frames read.
    const resFrames = ids.map((id) => seq.res.get(id)!);
    const numRes = resFrames.reduce((top, m) => Math.max(top, largest(m)), 0);
    const r = boundaryRadius(gtFrames[0].width, gtFrames[0].height);
    const score = (g: number, p: number, useVoid: boolean): [number[], number[]] => {
      const j: number[] = [];
      const f: number[] = [];
      gtFrames.forEach((frame, t) => {
        const gm = binary(frame, g);
        const pm = p <= numRes ? binary(resFrames[t], p) : binary(resFrames[t], -1);
        const vm = useVoid ? voids[t] : undefined;
        j.push(portIou(gm, pm, vm));
        f.push(portFMeasure(gm, pm, vm, r));
      });
      return [j, f];
    };
    let jRes: number[][];
    let fRes: number[][];
    if (task === 'semi-supervised') {
      if (numRes > numObjects) throw new Error('In your PNG files there is an index higher than the number of objects in the sequence!');
      jRes = [];
      fRes = [];
      for (let ii = 1; ii <= numObjects; ii++) {
        const [j, f] = score(ii, ii, false);
        jRes.push(j);
        fRes.push(f);
      }
    } else {
      const nRes = Math.max(numRes, numObjects);
      const all: [number[], number[]][][] = [];
      const cost: number[][] = [];
      for (let jj = 1; jj <= nRes; jj++) {
        all.push([]);
        cost.push([]);
        for (let ii = 1; ii <= numObjects; ii++) {
          const s = score(ii, jj, true);
          all[jj - 1].push(s);
          cost[jj - 1].push((mean(s[0]) + mean(s[1])) / 2);
        }
      }
      const { rows, cols } = numObjects === 0 ? { rows: [], cols: [] } : linearSumAssignment(cost, true);
      jRes = rows.map((row, k) => all[row][cols[k]][0]);
      fRes = rows.map((row, k) => all[row][cols[k]][1]);
    }
    for (let ii = 0; ii < numObjects; ii++) {
      const J = portDbStatistics(jRes[ii], integerEdges);
      const F = portDbStatistics(fRes[ii], integerEdges);
      JM.push(J[0]);
      JR.push(J[1]);
      JD.push(J[2]);
      FM.push(F[0]);
      FR.push(F[1]);
      FD.push(F[2]);
      perSequence.push({ name: `${seq.name}_${ii + 1}`, jMean: J[0], fMean: F[0] });
      objects.push({ J, F });
    }
  }
  const m = (v: number[]): number => (v.length === 0 ? NaN : v.reduce((s, x) => s + x, 0) / v.length);
  const global = [(m(JM) + m(FM)) / 2, m(JM), m(JR), m(JD), m(FM), m(FR), m(FD)];
  return { global, perSequence, objects };
}
