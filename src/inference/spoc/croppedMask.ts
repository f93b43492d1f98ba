/**
 * A binary mask stored as its bounding box plus the bits inside it. Automatic proposals come by
 * the thousand (32x32 grid points x 3 masks); full-frame bitmaps would need gigabytes at 1080p,
 * cropped ones need only their objects' area.
 */
import type { Box } from '../../masks/labelMap';

export interface CroppedMask {
  /** Frame size the box lives in. */
  frameWidth: number;
  frameHeight: number;
  /** Tight box of the set pixels (w = h = 0 for an empty mask). */
  box: Box;
  /** box.w * box.h, 0/1, row-major within the box. */
  data: Uint8Array;
  area: number;
}

/** Crops a full-frame 0/1 mask to its tight box. */
export function cropMask(data: Uint8Array, width: number, height: number): CroppedMask {
  if (data.length !== width * height) throw new RangeError(`mask has ${data.length} pixels, expected ${width}x${height}`);
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  let area = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[y * width + x] !== 0) {
        area++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  if (area === 0) return { frameWidth: width, frameHeight: height, box: { x: 0, y: 0, w: 0, h: 0 }, data: new Uint8Array(0), area: 0 };
  const box = { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  const out = new Uint8Array(box.w * box.h);
  for (let y = 0; y < box.h; y++) {
    for (let x = 0; x < box.w; x++) out[y * box.w + x] = data[(y + y0) * width + x + x0] !== 0 ? 1 : 0;
  }
  return { frameWidth: width, frameHeight: height, box, data: out, area };
}

/**
 * Each row's runs of set pixels, in frame x: NMS compares thousands of mask pairs, and SAM masks
 * have a run or two per row, so counting overlap run against run is far cheaper than pixel by
 * pixel. Computed once per mask and kept beside it (a WeakMap: the mask stays a plain,
 * structured-cloneable object).
 */
interface RowRuns {
  /** Runs of box row j are pairs rowStart[j] .. rowStart[j + 1] - 1 of `xs` (start, end exclusive). */
  rowStart: Int32Array;
  xs: Int32Array;
}

const runsCache = new WeakMap<CroppedMask, RowRuns>();

function rowRuns(m: CroppedMask): RowRuns {
  let r = runsCache.get(m);
  if (r) return r;
  const { w, h, x: bx } = m.box;
  const rowStart = new Int32Array(h + 1);
  let xs = new Int32Array(Math.max(16, 2 * h));
  let n = 0;
  for (let j = 0; j < h; j++) {
    rowStart[j] = n;
    const row = j * w;
    let x = 0;
    while (x < w) {
      while (x < w && m.data[row + x] === 0) x++;
      if (x === w) break;
      const start = x;
      while (x < w && m.data[row + x] !== 0) x++;
      if (n + 2 > xs.length) {
        const grown = new Int32Array(xs.length * 2);
        grown.set(xs);
        xs = grown;
      }
      xs[n++] = bx + start;
      xs[n++] = bx + x;
    }
  }
  rowStart[h] = n;
  r = { rowStart, xs };
  runsCache.set(m, r);
  return r;
}

/** Pixels set in both masks (only rows in both boxes are read, run against run). */
export function intersectionArea(a: CroppedMask, b: CroppedMask): number {
  const y0 = Math.max(a.box.y, b.box.y);
  const y1 = Math.min(a.box.y + a.box.h, b.box.y + b.box.h);
  if (y1 <= y0 || Math.max(a.box.x, b.box.x) >= Math.min(a.box.x + a.box.w, b.box.x + b.box.w)) return 0;
  const ra = rowRuns(a);
  const rb = rowRuns(b);
  let n = 0;
  for (let y = y0; y < y1; y++) {
    let i = ra.rowStart[y - a.box.y];
    const iEnd = ra.rowStart[y - a.box.y + 1];
    let k = rb.rowStart[y - b.box.y];
    const kEnd = rb.rowStart[y - b.box.y + 1];
    while (i < iEnd && k < kEnd) {
      const lo = Math.max(ra.xs[i], rb.xs[k]);
      const hi = Math.min(ra.xs[i + 1], rb.xs[k + 1]);
      if (hi > lo) n += hi - lo;
      if (ra.xs[i + 1] < rb.xs[k + 1]) i += 2;
      else k += 2;
    }
  }
  return n;
}

export function maskIou(a: CroppedMask, b: CroppedMask): number {
  const inter = intersectionArea(a, b);
  const union = a.area + b.area - inter;
  return union === 0 ? 0 : inter / union;
}

export function boxIou(a: Box, b: Box): number {
  const iw = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const ih = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = iw * ih;
  const union = a.w * a.h + b.w * b.h - inter;
  return union <= 0 ? 0 : inter / union;
}
