/**
 * Area, bounding box, IoU and merge on COCO RLE without decoding to pixels, ported from
 * pycocotools (maskApi.c rleArea, rleToBbox, rleIou, rleMerge) so results match it exactly.
 *
 * Each operation has a counts-level form (Uint32Array of runs, for hot loops that already hold
 * counts) and a CocoRle form. Counts are expected canonical (only the first run may be empty), as
 * every encoder here and in pycocotools produces them.
 */
import { makeRle, rleCounts, type CocoRle } from './rle';
import { RunBuffer } from './runBuffer';

/** [x, y, width, height] in pixels, as COCO's bbox field. */
export type CocoBbox = [x: number, y: number, w: number, h: number];

/** Number of "on" pixels: the sum of the odd-indexed runs. */
export function countsArea(counts: ArrayLike<number>): number {
  let area = 0;
  for (let j = 1; j < counts.length; j += 2) area += counts[j];
  return area;
}

export function rleArea(rle: CocoRle): number {
  return countsArea(rleCounts(rle));
}

/**
 * Tight bounding box of the on pixels, [0, 0, 0, 0] when empty (rleToBbox).
 * A run that wraps from one column into the next covers the full height between them, so the
 * box then spans all rows, exactly as the reference does.
 */
export function countsToBbox(counts: ArrayLike<number>, h: number): CocoBbox {
  // Like the reference, ignore a trailing zeros run: only (zeros, ones) pairs matter.
  const m = counts.length - (counts.length % 2);
  let xs = Infinity;
  let xe = -1;
  let ys = Infinity;
  let ye = -1;
  let pos = 0;
  for (let j = 0; j < m; j += 2) {
    const start = pos + counts[j];
    const len = counts[j + 1];
    pos = start + len;
    if (len === 0) continue; // only a non-canonical input has empty ones-runs
    const last = pos - 1;
    const x0 = Math.floor(start / h);
    const x1 = Math.floor(last / h);
    let y0 = start - x0 * h;
    let y1 = last - x1 * h;
    if (x0 < x1) {
      y0 = 0;
      y1 = h - 1;
    }
    if (x0 < xs) xs = x0;
    if (x1 > xe) xe = x1;
    if (y0 < ys) ys = y0;
    if (y1 > ye) ye = y1;
  }
  if (xe < 0) return [0, 0, 0, 0];
  return [xs, ys, xe - xs + 1, ye - ys + 1];
}

export function rleToBbox(rle: CocoRle): CocoBbox {
  return countsToBbox(rleCounts(rle), rle.size[0]);
}

export interface Overlap {
  intersection: number;
  union: number;
}

/** Pixel counts of the intersection and union of two masks of the same size, in one pass over runs. */
export function countsOverlap(a: ArrayLike<number>, b: ArrayLike<number>): Overlap {
  let ca = a[0];
  let cb = b[0];
  let va = false;
  let vb = false;
  let ia = 1;
  let ib = 1;
  let intersection = 0;
  let union = 0;
  let ct = 1;
  while (ct > 0) {
    const c = ca < cb ? ca : cb;
    if (va || vb) {
      union += c;
      if (va && vb) intersection += c;
    }
    ca -= c;
    if (ca === 0 && ia < a.length) {
      ca = a[ia++];
      va = !va;
    }
    cb -= c;
    if (cb === 0 && ib < b.length) {
      cb = b[ib++];
      vb = !vb;
    }
    ct = ca + cb;
  }
  return { intersection, union };
}

/**
 * IoU as pycocotools' rleIou: intersection / union, except that no intersection gives 0 (so two
 * empty masks score 0, unlike DAVIS J which scores them 1) and a crowd ground truth uses the
 * detection's area as the union.
 */
export function countsIou(dt: ArrayLike<number>, gt: ArrayLike<number>, gtIsCrowd = false): number {
  const { intersection, union } = countsOverlap(dt, gt);
  if (intersection === 0) return 0;
  return intersection / (gtIsCrowd ? countsArea(dt) : union);
}

export function rleIou(dt: CocoRle, gt: CocoRle, gtIsCrowd = false): number {
  assertSameSize(dt, gt, 'rleIou');
  return countsIou(rleCounts(dt), rleCounts(gt), gtIsCrowd);
}

/** Union (or intersection) of masks of one size, folded left to right as rleMerge. */
export function mergeCounts(list: readonly ArrayLike<number>[], intersect = false): Uint32Array {
  if (list.length === 0) throw new RangeError('mergeCounts needs at least one mask');
  let acc: ArrayLike<number> = list[0];
  for (let i = 1; i < list.length; i++) acc = mergeTwo(acc, list[i], intersect);
  return Uint32Array.from(acc);
}

export function rleMerge(rles: readonly CocoRle[], intersect = false): CocoRle {
  if (rles.length === 0) throw new RangeError('rleMerge needs at least one RLE');
  for (const r of rles) assertSameSize(rles[0], r, 'rleMerge');
  const [h, w] = rles[0].size;
  return makeRle(mergeCounts(rles.map(rleCounts), intersect), h, w);
}

function mergeTwo(a: ArrayLike<number>, b: ArrayLike<number>, intersect: boolean): Uint32Array {
  const out = new RunBuffer(Math.max(16, a.length + b.length));
  let ca = a[0];
  let cb = b[0];
  let va = false;
  let vb = false;
  let v = false;
  let ia = 1;
  let ib = 1;
  let cc = 0;
  let ct = 1;
  while (ct > 0) {
    const c = ca < cb ? ca : cb;
    cc += c;
    ca -= c;
    if (ca === 0 && ia < a.length) {
      ca = a[ia++];
      va = !va;
    }
    cb -= c;
    if (cb === 0 && ib < b.length) {
      cb = b[ib++];
      vb = !vb;
    }
    ct = ca + cb;
    // v is the value of the segment that starts now; close the run when it changes or at the end.
    const vp: boolean = v;
    v = intersect ? va && vb : va || vb;
    if (v !== vp || ct === 0) {
      out.push(cc);
      cc = 0;
    }
  }
  return out.toArray();
}

function assertSameSize(a: CocoRle, b: CocoRle, op: string): void {
  if (a.size[0] !== b.size[0] || a.size[1] !== b.size[1]) {
    throw new RangeError(`${op}: sizes differ ([${a.size.join(', ')}] vs [${b.size.join(', ')}])`);
  }
}
