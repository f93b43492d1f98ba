/**
 * SAM mask post-processing on the main data path: thresholding logits into binary masks, the
 * official export's mask selection rule, and (for exports that return only 256x256 low-res masks)
 * SAM's up-sampling to the frame.
 */
import type { Box } from '../../masks/labelMap';
import { SAM_LOW_RES, SAM_SIDE, type SamGeometry } from './samGeometry';

export interface BinaryMask {
  width: number;
  height: number;
  /** 0/1 per pixel, row-major. */
  data: Uint8Array;
  area: number;
  /** Tight inclusive-exclusive box, null when empty. */
  bbox: Box | null;
}

/**
 * logits > threshold (SAM's mask_threshold is 0) over one W x H plane starting at `offset`.
 * With a `window`, only pixels inside it are read (the caller guarantees none outside is set).
 */
export function binarize(logits: Float32Array, offset: number, width: number, height: number, threshold = 0, window?: Box | null): BinaryMask {
  const data = new Uint8Array(width * height);
  if (window === null) return { width, height, data, area: 0, bbox: null };
  const wx0 = window ? window.x : 0;
  const wy0 = window ? window.y : 0;
  const wx1 = window ? window.x + window.w : width;
  const wy1 = window ? window.y + window.h : height;
  let area = 0;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = wy0; y < wy1; y++) {
    const row = offset + y * width;
    let rowHit = false;
    for (let x = wx0; x < wx1; x++) {
      if (logits[row + x] > threshold) {
        data[y * width + x] = 1;
        area++;
        rowHit = true;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
      }
    }
    if (rowHit) {
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  const bbox = area === 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  return { width, height, data, area, bbox };
}

/**
 * SamOnnxModel.select_masks: with at most 2 decoder points (one click plus the padding point, or a
 * box's two corners) the prompt is ambiguous and the best of the multimask outputs 1..3 by
 * predicted IoU wins; with more points the single-mask output 0 is used. Exports with one output
 * mask (return_single_mask=True) always give 0.
 */
export function selectOfficialMask(iou: ArrayLike<number>, decoderPointCount: number): number {
  if (iou.length <= 1) return 0;
  if (decoderPointCount > 2) return 0;
  let best = 1;
  for (let k = 2; k < iou.length; k++) if (iou[k] > iou[best]) best = k;
  return best;
}

/** Index of the highest score (first on ties). */
export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < values.length; k++) if (values[k] > values[best]) best = k;
  return best;
}

/** Per-axis source positions of PyTorch's bilinear interpolation (F.interpolate, align_corners=False). */
export function linearAxis(inSize: number, outSize: number): { i0: Int32Array; i1: Int32Array; t: Float32Array } {
  const scale = inSize / outSize;
  const i0 = new Int32Array(outSize);
  const i1 = new Int32Array(outSize);
  const t = new Float32Array(outSize);
  for (let o = 0; o < outSize; o++) {
    const src = Math.max(scale * (o + 0.5) - 0.5, 0);
    const lo = Math.min(Math.floor(src), inSize - 1);
    i0[o] = lo;
    i1[o] = Math.min(lo + 1, inSize - 1);
    t[o] = src - lo;
  }
  return { i0, i1, t };
}

/**
 * SAM's postprocess_masks (256 -> 1024 bilinear, crop to the resized image, bilinear to the frame)
 * is linear and separable, so each frame column is a fixed 4-tap blend of low-res columns (and
 * likewise rows). These tables let us evaluate any frame pixel directly from the 256x256 logits.
 */
interface ComposedAxis {
  /** 4 low-res indices per output index. */
  idx: Int32Array;
  /** 4 weights per output index. */
  w: Float64Array;
}

function composedAxis(cropSize: number, outSize: number): ComposedAxis {
  const up = linearAxis(SAM_LOW_RES, SAM_SIDE);
  const down = linearAxis(cropSize, outSize);
  const idx = new Int32Array(outSize * 4);
  const w = new Float64Array(outSize * 4);
  for (let o = 0; o < outSize; o++) {
    const p0 = down.i0[o];
    const p1 = down.i1[o];
    const t = down.t[o];
    const k = o * 4;
    idx[k] = up.i0[p0];
    w[k] = (1 - t) * (1 - up.t[p0]);
    idx[k + 1] = up.i1[p0];
    w[k + 1] = (1 - t) * up.t[p0];
    idx[k + 2] = up.i0[p1];
    w[k + 2] = t * (1 - up.t[p1]);
    idx[k + 3] = up.i1[p1];
    w[k + 3] = t * up.t[p1];
  }
  return { idx, w };
}

const axisCache = new Map<string, ComposedAxis>();
function axisFor(cropSize: number, outSize: number): ComposedAxis {
  const key = `${cropSize}:${outSize}`;
  let a = axisCache.get(key);
  if (!a) {
    if (axisCache.size > 16) axisCache.clear();
    a = composedAxis(cropSize, outSize);
    axisCache.set(key, a);
  }
  return a;
}

/** [first, last] output indices whose taps (with weight > 0) touch low-res indices in [lo, hi]; null if none. */
function reach(a: ComposedAxis, outSize: number, lo: number, hi: number): [number, number] | null {
  let first = -1;
  let last = -1;
  for (let o = 0; o < outSize; o++) {
    for (let k = o * 4; k < o * 4 + 4; k++) {
      if (a.w[k] > 0 && a.idx[k] >= lo && a.idx[k] <= hi) {
        if (first < 0) first = o;
        last = o;
        break;
      }
    }
  }
  return first < 0 ? null : [first, last];
}

/**
 * The frame pixels that can be positive after up-sampling: those blending at least one positive
 * low-res logit (a blend of values <= 0 is <= 0). Null when no low-res logit is positive, i.e. the
 * mask is empty. Lets post-processing skip most of a 1080p frame for a typical object.
 */
export function supportWindow(lowRes: Float32Array, offset: number, g: SamGeometry, threshold = 0): Box | null {
  let c0 = SAM_LOW_RES;
  let c1 = -1;
  let r0 = SAM_LOW_RES;
  let r1 = -1;
  for (let r = 0; r < SAM_LOW_RES; r++) {
    const row = offset + r * SAM_LOW_RES;
    for (let c = 0; c < SAM_LOW_RES; c++) {
      if (lowRes[row + c] > threshold) {
        if (c < c0) c0 = c;
        if (c > c1) c1 = c;
        if (r < r0) r0 = r;
        r1 = r;
      }
    }
  }
  if (c1 < 0) return null;
  const xs = reach(axisFor(g.resizedWidth, g.width), g.width, c0, c1);
  const ys = reach(axisFor(g.resizedHeight, g.height), g.height, r0, r1);
  if (!xs || !ys) return null;
  return { x: xs[0], y: ys[0], w: xs[1] - xs[0] + 1, h: ys[1] - ys[0] + 1 };
}

/** SAM's postprocess_masks for one 256x256 low-res plane, evaluated over the whole frame. */
export function lowResToFrame(lowRes: Float32Array, offset: number, g: SamGeometry): Float32Array {
  return evaluate(lowRes, offset, g, { x: 0, y: 0, w: g.width, h: g.height });
}

/** Frame logits inside `win` (win.w x win.h, row-major). */
function evaluate(lowRes: Float32Array, offset: number, g: SamGeometry, win: Box): Float32Array {
  const ax = axisFor(g.resizedWidth, g.width);
  const ay = axisFor(g.resizedHeight, g.height);
  // Low-res rows the window needs, then those rows blended horizontally at the window's columns.
  let rLo = SAM_LOW_RES;
  let rHi = -1;
  for (let k = win.y * 4; k < (win.y + win.h) * 4; k++) {
    rLo = Math.min(rLo, ay.idx[k]);
    rHi = Math.max(rHi, ay.idx[k]);
  }
  const tmp = new Float64Array((rHi - rLo + 1) * win.w);
  for (let r = rLo; r <= rHi; r++) {
    const src = offset + r * SAM_LOW_RES;
    const dst = (r - rLo) * win.w;
    for (let x = 0; x < win.w; x++) {
      const k = (x + win.x) * 4;
      tmp[dst + x] = ax.w[k] * lowRes[src + ax.idx[k]] + ax.w[k + 1] * lowRes[src + ax.idx[k + 1]] + ax.w[k + 2] * lowRes[src + ax.idx[k + 2]] + ax.w[k + 3] * lowRes[src + ax.idx[k + 3]];
    }
  }
  const out = new Float32Array(win.w * win.h);
  for (let y = 0; y < win.h; y++) {
    const k = (y + win.y) * 4;
    const a = (ay.idx[k] - rLo) * win.w;
    const b = (ay.idx[k + 1] - rLo) * win.w;
    const c = (ay.idx[k + 2] - rLo) * win.w;
    const d = (ay.idx[k + 3] - rLo) * win.w;
    const wa = ay.w[k];
    const wb = ay.w[k + 1];
    const wc = ay.w[k + 2];
    const wd = ay.w[k + 3];
    for (let x = 0; x < win.w; x++) out[y * win.w + x] = wa * tmp[a + x] + wb * tmp[b + x] + wc * tmp[c + x] + wd * tmp[d + x];
  }
  return out;
}

/** The binary frame mask of one low-res plane, computing only the pixels that can be set. */
export function lowResMask(lowRes: Float32Array, offset: number, g: SamGeometry, threshold = 0): BinaryMask {
  const win = supportWindow(lowRes, offset, g, threshold);
  if (!win) return { width: g.width, height: g.height, data: new Uint8Array(g.width * g.height), area: 0, bbox: null };
  const values = evaluate(lowRes, offset, g, win);
  const part = binarize(values, 0, win.w, win.h, threshold);
  const data = new Uint8Array(g.width * g.height);
  for (let y = 0; y < win.h; y++) data.set(part.data.subarray(y * win.w, (y + 1) * win.w), (y + win.y) * g.width + win.x);
  const bbox = part.bbox && { x: part.bbox.x + win.x, y: part.bbox.y + win.y, w: part.bbox.w, h: part.bbox.h };
  return { width: g.width, height: g.height, data, area: part.area, bbox };
}
