import { type BinaryMask, assertSameSize, wordView } from './binaryMask';

/** Intersection and union pixel counts, the two numbers every IoU in this folder is built from. */
export interface Overlap {
  intersection: number;
  union: number;
}

/**
 * IoU from counts with the DAVIS convention: an empty union scores 1, because predicting nothing
 * where there is nothing is a perfect answer (davis2017 metrics.py `db_eval_iou`, `np.isclose(union, 0)`).
 * COCO's maskApi returns 0 in that case; SPOC aggregation instead leaves such units out (spoc.ts).
 */
export function iouOrOne(intersection: number, union: number): number {
  return union === 0 ? 1 : intersection / union;
}

/** |P ∩ G \ V| and |P ∪ G \ V| in one pass. */
export function overlap(gt: BinaryMask, pred: BinaryMask, voidMask?: BinaryMask): Overlap {
  assertSameSize(gt, pred, 'prediction');
  if (voidMask) assertSameSize(gt, voidMask, 'void mask');
  const g = gt.data;
  const p = pred.data;
  const v = voidMask?.data;
  const n = g.length;
  let inter = 0;
  let union = 0;
  let start = 0;
  const gw = wordView(g);
  const pw = wordView(p);
  if (gw && pw) {
    // Skip four background pixels at a time; only words with foreground go pixel by pixel.
    const words = gw.length;
    for (let w = 0; w < words; w++) {
      if ((gw[w] | pw[w]) === 0) continue;
      const end = (w << 2) + 4;
      for (let i = w << 2; i < end; i++) {
        const gi = g[i] !== 0;
        const pi = p[i] !== 0;
        if ((gi || pi) && (v === undefined || v[i] === 0)) {
          union++;
          if (gi && pi) inter++;
        }
      }
    }
    start = words << 2;
  }
  for (let i = start; i < n; i++) {
    const gi = g[i] !== 0;
    const pi = p[i] !== 0;
    if ((gi || pi) && (v === undefined || v[i] === 0)) {
      union++;
      if (gi && pi) inter++;
    }
  }
  return { intersection: inter, union };
}

/**
 * DAVIS region similarity J = |P ∩ G \ V| / |P ∪ G \ V|; 1 when the union is empty.
 * Reproduces davis2017-evaluation `db_eval_iou` for one frame.
 */
export function jaccard(gt: BinaryMask, pred: BinaryMask, voidMask?: BinaryMask): number {
  const { intersection, union } = overlap(gt, pred, voidMask);
  return iouOrOne(intersection, union);
}
