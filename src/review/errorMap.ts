/**
 * Prediction vs ground truth, pixel by pixel, for the review room's error overlay, and the diff of
 * two versions of a layer for the reviewer's added/removed overlay. Pure: no DOM, no store.
 *
 * Pixel conventions are exactly those of the metric code (metrics/spoc.ts countFrame), so the
 * counts here reproduce its intersections and unions (see `frameCountsOf`, tested against it):
 * ground truth 1 / 2 are the states, 4 (ambiguous), 5 (ignore) and 255 (void) are excluded from
 * every score, anything else (0, release background 3, ...) is background; in a prediction only
 * 1 and 2 are states and every other value is background. A missing prediction (null) is empty.
 */
import type { Box, LabelMap, RgbaImage } from '../masks/labelMap';
import { LABEL } from '../masks/labelMap';
import type { FrameCounts } from '../metrics/spoc';

/** Per-pixel error classes. "FP"/"FN" are against the background; "wrong state" is a swap of the states. */
export const ERROR_CLASS = {
  /** Background in both (or a non-state value in both). */
  none: 0,
  /** True positive, actionable. */
  tpAct: 1,
  /** True positive, transformed. */
  tpTrf: 2,
  /** False positive: predicted actionable, ground truth background. */
  fpAct: 3,
  /** False positive: predicted transformed, ground truth background. */
  fpTrf: 4,
  /** False negative: ground truth actionable, predicted background. */
  fnAct: 5,
  /** False negative: ground truth transformed, predicted background. */
  fnTrf: 6,
  /** Wrong state: ground truth actionable, predicted transformed. */
  actAsTrf: 7,
  /** Wrong state: ground truth transformed, predicted actionable. */
  trfAsAct: 8,
  /** Ground truth 4 / 5 / 255: left out of every score, whatever the prediction says. */
  excluded: 9,
} as const;
export type ErrorClass = (typeof ERROR_CLASS)[keyof typeof ERROR_CLASS];
export type ErrorClassName = keyof typeof ERROR_CLASS;

export type ErrorCounts = Record<ErrorClassName, number>;

export interface ErrorMap {
  width: number;
  height: number;
  /** One ErrorClass per pixel, row-major like the label maps. */
  data: Uint8Array;
  counts: ErrorCounts;
}

// Codes as in metrics/spoc.ts: 0 background, 1 actionable, 2 transformed, 3 excluded.
const GT_CODE = new Uint8Array(256);
GT_CODE[LABEL.actionable] = 1;
GT_CODE[LABEL.transformed] = 2;
GT_CODE[LABEL.ambiguous] = 3;
GT_CODE[LABEL.ignore] = 3;
GT_CODE[LABEL.void] = 3;
const PRED_CODE = new Uint8Array(256);
PRED_CODE[LABEL.actionable] = 1;
PRED_CODE[LABEL.transformed] = 2;

/** (gt code << 2 | pred code) -> error class. */
const CLASS_OF = new Uint8Array(16);
CLASS_OF[(0 << 2) | 0] = ERROR_CLASS.none;
CLASS_OF[(0 << 2) | 1] = ERROR_CLASS.fpAct;
CLASS_OF[(0 << 2) | 2] = ERROR_CLASS.fpTrf;
CLASS_OF[(1 << 2) | 0] = ERROR_CLASS.fnAct;
CLASS_OF[(1 << 2) | 1] = ERROR_CLASS.tpAct;
CLASS_OF[(1 << 2) | 2] = ERROR_CLASS.actAsTrf;
CLASS_OF[(2 << 2) | 0] = ERROR_CLASS.fnTrf;
CLASS_OF[(2 << 2) | 1] = ERROR_CLASS.trfAsAct;
CLASS_OF[(2 << 2) | 2] = ERROR_CLASS.tpTrf;
CLASS_OF[(3 << 2) | 0] = ERROR_CLASS.excluded;
CLASS_OF[(3 << 2) | 1] = ERROR_CLASS.excluded;
CLASS_OF[(3 << 2) | 2] = ERROR_CLASS.excluded;

const NAMES = Object.keys(ERROR_CLASS) as ErrorClassName[];

export function zeroErrorCounts(): ErrorCounts {
  return Object.fromEntries(NAMES.map((k) => [k, 0])) as ErrorCounts;
}

/** The error class of every pixel of one frame, and how many pixels each class has. */
export function errorMap(gt: LabelMap, pred: LabelMap | null): ErrorMap {
  if (pred && (pred.width !== gt.width || pred.height !== gt.height)) {
    throw new RangeError(`label maps differ in size: ${gt.width}x${gt.height} vs ${pred.width}x${pred.height}`);
  }
  const g = gt.data;
  const p = pred?.data;
  const n = g.length;
  const data = new Uint8Array(n);
  const hist = new Float64Array(10);
  for (let i = 0; i < n; i++) {
    const c = CLASS_OF[(GT_CODE[g[i]] << 2) | (p ? PRED_CODE[p[i]] : 0)];
    data[i] = c;
    hist[c]++;
  }
  const counts = zeroErrorCounts();
  for (const name of NAMES) counts[name] = hist[ERROR_CLASS[name]];
  return { width: gt.width, height: gt.height, data, counts };
}

export interface StateErrors {
  /** Pixels right (the intersection). */
  tp: number;
  /** Pixels the prediction claims for the state that ground truth does not (background or the other state). */
  fp: number;
  /** Pixels of the state in ground truth the prediction misses (as background or the other state). */
  fn: number;
  /** tp / (tp + fp + fn); NaN when the state is absent from both. */
  iou: number;
}

export interface ErrorSummary {
  act: StateErrors;
  trf: StateErrors;
  /** Both states fused into one object ("w/o OSC"): a wrong state is a hit here. */
  obj: StateErrors;
}

function stateErrors(tp: number, fp: number, fn: number): StateErrors {
  const u = tp + fp + fn;
  return { tp, fp, fn, iou: u === 0 ? Number.NaN : tp / u };
}

/**
 * Per-state TP / FP / FN as the metrics count them: a wrong-state pixel is a false positive of the
 * predicted state AND a false negative of the true one; for the fused object it is a hit, and only
 * the background errors count.
 */
export function summarizeErrors(c: ErrorCounts): ErrorSummary {
  return {
    act: stateErrors(c.tpAct, c.fpAct + c.trfAsAct, c.fnAct + c.actAsTrf),
    trf: stateErrors(c.tpTrf, c.fpTrf + c.actAsTrf, c.fnTrf + c.trfAsAct),
    obj: stateErrors(c.tpAct + c.tpTrf + c.actAsTrf + c.trfAsAct, c.fpAct + c.fpTrf, c.fnAct + c.fnTrf),
  };
}

/** The intersections and unions metrics/spoc.ts countFrame computes for the same frame. */
export function frameCountsOf(c: ErrorCounts): FrameCounts {
  const s = summarizeErrors(c);
  return {
    iAct: s.act.tp,
    uAct: s.act.tp + s.act.fp + s.act.fn,
    iTrf: s.trf.tp,
    uTrf: s.trf.tp + s.trf.fp + s.trf.fn,
    iObj: s.obj.tp,
    uObj: s.obj.tp + s.obj.fp + s.obj.fn,
  };
}

export type Rgba = readonly [r: number, g: number, b: number, a: number];

/**
 * Suggested overlay colours (docs/review.md). The errors are nearly opaque and taken from the
 * Okabe–Ito colour-blind-safe palette, away from the state colours (red actionable, green
 * transformed) that the hits keep, faintly: false positive reddish purple #CC79A7, false negative
 * blue #0072B2, wrong state yellow #F0E442; excluded pixels a faint grey.
 */
export const ERROR_COLOURS: Record<ErrorClass, Rgba> = {
  [ERROR_CLASS.none]: [0, 0, 0, 0],
  [ERROR_CLASS.tpAct]: [239, 68, 68, 70],
  [ERROR_CLASS.tpTrf]: [34, 197, 94, 70],
  [ERROR_CLASS.fpAct]: [204, 121, 167, 220],
  [ERROR_CLASS.fpTrf]: [204, 121, 167, 220],
  [ERROR_CLASS.fnAct]: [0, 114, 178, 220],
  [ERROR_CLASS.fnTrf]: [0, 114, 178, 220],
  [ERROR_CLASS.actAsTrf]: [240, 228, 66, 220],
  [ERROR_CLASS.trfAsAct]: [240, 228, 66, 220],
  [ERROR_CLASS.excluded]: [156, 163, 175, 90],
};

/** Writes an error map's colours into an RGBA image of the same size (e.g. an ImageData). */
export function paintErrorMap(map: Pick<ErrorMap, 'width' | 'height' | 'data'>, out: RgbaImage, colours: Record<number, Rgba> = ERROR_COLOURS): void {
  if (out.width !== map.width || out.height !== map.height) {
    throw new RangeError(`image is ${out.width}x${out.height}; the error map is ${map.width}x${map.height}`);
  }
  const px = out.data;
  for (let i = 0; i < map.data.length; i++) {
    const c = colours[map.data[i]] ?? ERROR_COLOURS[ERROR_CLASS.none];
    const o = i * 4;
    px[o] = c[0];
    px[o + 1] = c[1];
    px[o + 2] = c[2];
    px[o + 3] = c[3];
  }
}

// ---------------------------------------------------------------------------------------------
// Diff of two versions of a layer (annotator's vs reviewer's), per state.

/** Bits of a diff pixel; a pixel that went actionable -> transformed has actRemoved | trfAdded. */
export const DIFF_BITS = {
  actAdded: 1,
  actRemoved: 2,
  trfAdded: 4,
  trfRemoved: 8,
} as const;

export interface StateDiff {
  added: number;
  removed: number;
  addedBox: Box | null;
  removedBox: Box | null;
}

export interface MapDiff {
  width: number;
  height: number;
  /** DIFF_BITS per pixel; 0 = unchanged. */
  data: Uint8Array;
  act: StateDiff;
  trf: StateDiff;
  /** Pixels whose label changed. */
  changed: number;
  /** Box of every changed pixel, or null when nothing changed. */
  box: Box | null;
}

class BoxAcc {
  x0 = Infinity;
  y0 = Infinity;
  x1 = -1;
  y1 = -1;
  add(x: number, y: number): void {
    if (x < this.x0) this.x0 = x;
    if (x > this.x1) this.x1 = x;
    if (y < this.y0) this.y0 = y;
    if (y > this.y1) this.y1 = y;
  }
  box(): Box | null {
    return this.x1 < 0 ? null : { x: this.x0, y: this.y0, w: this.x1 - this.x0 + 1, h: this.y1 - this.y0 + 1 };
  }
}

/**
 * What changed between two label maps of one frame, per state: pixels that gained the state
 * (added) and lost it (removed). Values other than 1 and 2 count as background. `before` null is
 * an empty map (a first annotation).
 */
export function diffMaps(before: LabelMap | null, after: LabelMap): MapDiff {
  if (before && (before.width !== after.width || before.height !== after.height)) {
    throw new RangeError(`label maps differ in size: ${before.width}x${before.height} vs ${after.width}x${after.height}`);
  }
  const { width, height } = after;
  const a = after.data;
  const b = before?.data;
  const data = new Uint8Array(a.length);
  const boxes = [new BoxAcc(), new BoxAcc(), new BoxAcc(), new BoxAcc()];
  const n = [0, 0, 0, 0];
  const all = new BoxAcc();
  let changed = 0;
  for (let i = 0; i < a.length; i++) {
    const was = b ? PRED_CODE[b[i]] : 0;
    const now = PRED_CODE[a[i]];
    if (was === now) continue;
    let bits = 0;
    if (now === 1) bits |= DIFF_BITS.actAdded;
    if (was === 1) bits |= DIFF_BITS.actRemoved;
    if (now === 2) bits |= DIFF_BITS.trfAdded;
    if (was === 2) bits |= DIFF_BITS.trfRemoved;
    data[i] = bits;
    changed++;
    const y = (i / width) | 0;
    const x = i - y * width;
    all.add(x, y);
    for (let k = 0; k < 4; k++) {
      if (bits & (1 << k)) {
        n[k]++;
        boxes[k].add(x, y);
      }
    }
  }
  return {
    width,
    height,
    data,
    act: { added: n[0], removed: n[1], addedBox: boxes[0].box(), removedBox: boxes[1].box() },
    trf: { added: n[2], removed: n[3], addedBox: boxes[2].box(), removedBox: boxes[3].box() },
    changed,
    box: all.box(),
  };
}
