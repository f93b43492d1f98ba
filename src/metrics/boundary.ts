import { type BinaryMask, assertSameSize, wordView } from './binaryMask';

/**
 * DAVIS boundary F-measure, reproducing davis2017-evaluation `metrics.py` (`f_measure`, `_seg2bmap`)
 * exactly, but without morphology: instead of dilating both boundary maps with a disk of radius r
 * and intersecting, we ask, for each boundary pixel, whether the nearest boundary pixel of the
 * other mask lies within squared distance r². "Some pixel of B inside the disk around p" and
 * "distance from p to B <= r" are the same predicate for the disk {dy² + dx² <= r²}, so the counts
 * are identical. The distance comes from a Felzenszwalb–Huttenlocher squared Euclidean distance
 * transform computed only over the boundaries' bounding boxes plus an r margin, and truncated at r
 * (values beyond r cannot change a decision), which keeps it exact and linear in the window.
 */

/** davis2017 default `bound_th`: a fraction of the image diagonal. */
export const DAVIS_BOUND_TH = 0.008;

/**
 * Matching radius in pixels: `bound_th` itself when >= 1, else ceil(bound_th * ‖(H, W)‖).
 * 480x854 -> 8, 720x1280 -> 12, 1080x1920 -> 18.
 */
export function boundaryRadius(width: number, height: number, boundTh: number = DAVIS_BOUND_TH): number {
  if (!(boundTh > 0) || !Number.isFinite(boundTh)) throw new RangeError(`bound_th must be a positive number, got ${boundTh}`);
  if (boundTh >= 1) {
    // skimage disk() with a fractional radius yields an even-sized kernel whose centre cv2 places
    // off-centre; no evaluation uses that, so refuse instead of guessing.
    if (!Number.isInteger(boundTh)) throw new RangeError(`a radius given in pixels must be an integer, got ${boundTh}`);
    return boundTh;
  }
  // numpy: np.ceil(bound_th * np.linalg.norm(shape)); sqrt of the sum of squares, as numpy does.
  return Math.ceil(boundTh * Math.sqrt(height * height + width * width));
}

export interface BoundaryScore {
  precision: number;
  recall: number;
  f: number;
  /** Boundary pixel counts and how many of them found a partner within the radius. */
  predBoundary: number;
  gtBoundary: number;
  matchedPred: number;
  matchedGt: number;
  radius: number;
}

/**
 * Boundary precision, recall and F between a prediction and the ground truth.
 * Void pixels are removed from both masks before boundary extraction, as in the reference, so the
 * edge of a void region becomes boundary.
 * Edge cases (reference): no pred boundary but GT boundary -> P=1, R=0; pred boundary but no GT
 * boundary -> P=0, R=1; neither -> P=R=1. F = 2PR/(P+R), 0 when P+R = 0.
 */
export function boundaryF(
  gt: BinaryMask,
  pred: BinaryMask,
  voidMask?: BinaryMask,
  boundTh: number = DAVIS_BOUND_TH,
): BoundaryScore {
  assertSameSize(gt, pred, 'prediction');
  if (voidMask) assertSameSize(gt, voidMask, 'void mask');
  const { width, height } = gt;
  const radius = boundaryRadius(width, height, boundTh);
  const gtB = extractBoundary(gt, voidMask);
  const predB = extractBoundary(pred, voidMask);
  const matchedPred = countMatched(predB, gtB, radius, width, height);
  const matchedGt = countMatched(gtB, predB, radius, width, height);
  const nPred = predB.count;
  const nGt = gtB.count;
  let precision: number;
  let recall: number;
  if (nPred === 0 && nGt > 0) {
    precision = 1;
    recall = 0;
  } else if (nPred > 0 && nGt === 0) {
    precision = 0;
    recall = 1;
  } else if (nPred === 0 && nGt === 0) {
    precision = 1;
    recall = 1;
  } else {
    precision = matchedPred / nPred;
    recall = matchedGt / nGt;
  }
  const f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f, predBoundary: nPred, gtBoundary: nGt, matchedPred, matchedGt, radius };
}

/**
 * Full-size seg2bmap of `mask & !void` (1 = boundary). A pixel is boundary when it differs from its
 * east, south or south-east neighbour (outside the image counts as 0); the last row compares east
 * only, the last column south only, and the bottom-right pixel never is. Boundaries therefore sit
 * half a pixel toward the origin, and an edge that lies along the image border produces none (an
 * all-ones mask has no boundary at all).
 */
export function boundaryMap(mask: BinaryMask, voidMask?: BinaryMask): BinaryMask {
  if (voidMask) assertSameSize(mask, voidMask, 'void mask');
  const { width, height } = mask;
  const out = new Uint8Array(width * height);
  const b = extractBoundary(mask, voidMask);
  for (let k = 0; k < b.count; k++) out[b.ys[k] * width + b.xs[k]] = 1;
  return { width, height, data: out };
}

/**
 * Exact squared Euclidean distance from every pixel to the nearest nonzero pixel of `features`
 * (Felzenszwalb & Huttenlocher 2012); Infinity everywhere when there is none. Row-major.
 */
export function squaredDistanceTransform(features: BinaryMask): Float64Array {
  const { width, height, data } = features;
  const ws = workspace(width, width * height);
  const g = ws.g;
  const last = ws.last;
  last.fill(-FAR, 0, width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (data[row + x] !== 0) last[x] = y;
      g[row + x] = y - last[x];
    }
  }
  verticalPass(g, width, height, ws.last, NONE_BEYOND);
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const sites = lowerEnvelope(g, row, width, NO_SITE - 1, ws);
    if (sites === 0) {
      out.fill(Infinity, row, row + width);
      continue;
    }
    let k = 0;
    for (let x = 0; x < width; x++) {
      while (ws.z[k + 1] < x) k++;
      const q = ws.v[k];
      out[row + x] = (x - q) * (x - q) + g[row + q];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Internals

/** Boundary pixels of one mask as coordinate lists in row-major order (y, then x, ascending). */
interface Boundary {
  xs: Int32Array;
  ys: Int32Array;
  count: number;
  /** Tight inclusive box of the boundary pixels (meaningless when count = 0). */
  bx0: number;
  by0: number;
  bx1: number;
  by1: number;
}

const NO_BOUNDARY: Boundary = { xs: new Int32Array(0), ys: new Int32Array(0), count: 0, bx0: 0, by0: 0, bx1: -1, by1: -1 };

/** Growable coordinate list; boundaries are usually a few hundred pixels, occasionally the window. */
class PointList {
  xs: Int32Array;
  ys: Int32Array;
  count = 0;
  constructor(capacity: number) {
    this.xs = new Int32Array(capacity);
    this.ys = new Int32Array(capacity);
  }
  push(x: number, y: number): void {
    if (this.count === this.xs.length) {
      const xs = new Int32Array(this.xs.length * 2);
      const ys = new Int32Array(this.xs.length * 2);
      xs.set(this.xs);
      ys.set(this.ys);
      this.xs = xs;
      this.ys = ys;
    }
    this.xs[this.count] = x;
    this.ys[this.count] = y;
    this.count++;
  }
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function isForeground(data: Uint8Array, v: Uint8Array | undefined, i: number): boolean {
  return data[i] !== 0 && (v === undefined || v[i] === 0);
}

/** Index of the first foreground pixel (mask & !void), or -1; skips zero words four pixels at a time. */
function firstForeground(data: Uint8Array, v: Uint8Array | undefined): number {
  const words = wordView(data);
  let i = 0;
  if (words) {
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) continue;
      for (let j = w << 2; j < (w << 2) + 4; j++) if (isForeground(data, v, j)) return j;
    }
    i = words.length << 2;
  }
  for (; i < data.length; i++) if (isForeground(data, v, i)) return i;
  return -1;
}

function lastForeground(data: Uint8Array, v: Uint8Array | undefined): number {
  const words = wordView(data);
  const tail = words ? words.length << 2 : 0;
  for (let i = data.length - 1; i >= tail; i--) if (isForeground(data, v, i)) return i;
  if (words) {
    for (let w = words.length - 1; w >= 0; w--) {
      if (words[w] === 0) continue;
      for (let j = (w << 2) + 3; j >= w << 2; j--) if (isForeground(data, v, j)) return j;
    }
  }
  return -1;
}

/**
 * Tight inclusive box of `mask & !void`, or null when that is empty. Rows come from the first and
 * last foreground pixels; columns from scanning each row inward only as far as the box so far, so
 * the object's interior is never read.
 */
function foregroundBox(mask: BinaryMask, voidMask?: BinaryMask): Box | null {
  const { width, data } = mask;
  const v = voidMask?.data;
  const first = firstForeground(data, v);
  if (first < 0) return null;
  const y0 = (first / width) | 0;
  const y1 = (lastForeground(data, v) / width) | 0;
  let x0 = width;
  let x1 = -1;
  for (let y = y0; y <= y1; y++) {
    const row = y * width;
    for (let x = 0; x < x0; x++) {
      if (isForeground(data, v, row + x)) {
        x0 = x;
        break;
      }
    }
    for (let x = width - 1; x > x1; x--) {
      if (isForeground(data, v, row + x)) {
        x1 = x;
        break;
      }
    }
  }
  return { x0, y0, x1, y1 };
}

/**
 * seg2bmap restricted to the window that can hold boundary pixels: the foreground box widened by
 * one pixel toward the origin (a background pixel whose east/south/south-east neighbour is
 * foreground is boundary too). Everything outside the window is provably non-boundary.
 */
function extractBoundary(mask: BinaryMask, voidMask?: BinaryMask): Boundary {
  const box = foregroundBox(mask, voidMask);
  if (!box) return NO_BOUNDARY;
  const { width, height, data } = mask;
  const v = voidMask?.data;
  const x0 = Math.max(0, box.x0 - 1);
  const y0 = Math.max(0, box.y0 - 1);
  const w = box.x1 - x0 + 1;
  const h = box.y1 - y0 + 1;
  // Cleaned copy (mask & !void) with one spare column and row for the east/south neighbours;
  // the spare cells and anything outside the image stay 0, as in the reference's zero padding.
  const cw = w + 1;
  const clean = new Uint8Array(cw * (h + 1));
  for (let y = box.y0; y <= box.y1; y++) {
    const src = y * width;
    const dst = (y - y0) * cw - x0;
    for (let x = box.x0; x <= box.x1; x++) {
      if (isForeground(data, v, src + x)) clean[dst + x] = 1;
    }
  }
  const points = new PointList(Math.min(w * h, 4 * (w + h) + 16));
  let bx0 = w;
  let bx1 = -1;
  // The image's last column (if inside the window) compares south only; the last row east only.
  const touchesRight = x0 + w === width;
  const inner = touchesRight ? w - 1 : w;
  for (let yy = 0; yy < h; yy++) {
    const y = y0 + yy;
    const lastRow = y === height - 1;
    const c0 = yy * cw;
    for (let xx = 0; xx < inner; xx++) {
      const c = c0 + xx;
      const s = clean[c];
      const b = lastRow ? s ^ clean[c + 1] : (s ^ clean[c + 1]) | (s ^ clean[c + cw]) | (s ^ clean[c + cw + 1]);
      if (b !== 0) {
        points.push(x0 + xx, y);
        if (xx < bx0) bx0 = xx;
        if (xx > bx1) bx1 = xx;
      }
    }
    if (touchesRight && !lastRow) {
      const c = c0 + w - 1;
      if ((clean[c] ^ clean[c + cw]) !== 0) {
        points.push(x0 + w - 1, y);
        bx1 = w - 1;
        if (w - 1 < bx0) bx0 = w - 1;
      }
    }
  }
  const { xs, ys, count } = points;
  if (count === 0) return NO_BOUNDARY;
  return { xs, ys, count, bx0: bx0 + x0, by0: ys[0], bx1: bx1 + x0, by1: ys[count - 1] };
}

/** Column distance meaning "no feature above/below": far beyond any image side, still int32-safe. */
const FAR = 1 << 29;
/** Any column distance above this is FAR-derived, i.e. there is no feature in that column. */
const NONE_BEYOND = FAR >> 1;
/** Squared distance meaning "no usable site"; larger than any real squared distance. */
const NO_SITE = 0x7fffffff;

/**
 * How many boundary pixels of `query` have a boundary pixel of `target` within squared distance r².
 *
 * The transform runs on D = (target box ⊕ r) ∩ (query box ⊕ r). That is exact for the decision:
 * a matched query pixel lies in both boxes ⊕ r, and the target pixel that matches it lies in the
 * target box and within r of the query box, so both are inside D; pixels outside D cannot match.
 *
 * First pass (columns): the 1-D distance transform of each column, truncated at r — every target
 * pixel stamps dy² onto the r cells above and below it; farther cells keep NO_SITE. That is the
 * exact column transform wherever it is <= r², and larger values can never bring a pixel within
 * r², so leaving them out keeps the decision exact while costing (2r+1) per boundary pixel
 * instead of two sweeps over D.
 * Second pass (rows): the Felzenszwalb–Huttenlocher lower envelope over those column values, built
 * only on rows holding query pixels and only over the columns within r of them.
 */
function countMatched(query: Boundary, target: Boundary, r: number, width: number, height: number): number {
  if (query.count === 0 || target.count === 0) return 0;
  const dx0 = Math.max(0, target.bx0 - r, query.bx0 - r);
  const dy0 = Math.max(0, target.by0 - r, query.by0 - r);
  const dx1 = Math.min(width - 1, target.bx1 + r, query.bx1 + r);
  const dy1 = Math.min(height - 1, target.by1 + r, query.by1 + r);
  if (dx1 < dx0 || dy1 < dy0) return 0;
  const dw = dx1 - dx0 + 1;
  const dh = dy1 - dy0 + 1;
  const r2 = r * r;
  const ws = workspace(dw, dw * dh);
  const g = ws.g;
  g.fill(NO_SITE, 0, dw * dh);

  // Column pass by stamping, clipped to D.
  const reach = Math.min(r, dh);
  for (let k = 0; k < target.count; k++) {
    const x = target.xs[k] - dx0;
    if (x < 0 || x >= dw) continue;
    const y = target.ys[k] - dy0;
    const from = Math.max(-reach, -y);
    const to = Math.min(reach, dh - 1 - y);
    for (let dy = from; dy <= to; dy++) {
      const i = (y + dy) * dw + x;
      const d2 = dy * dy;
      if (d2 < g[i]) g[i] = d2;
    }
  }

  // Row pass over runs of query pixels that share a row.
  let matched = 0;
  const { xs, ys, count } = query;
  let k = 0;
  while (k < count) {
    const iy = ys[k];
    let end = k + 1;
    while (end < count && ys[end] === iy) end++;
    if (iy >= dy0 && iy <= dy1) {
      const lo = Math.max(dx0, xs[k] - r) - dx0;
      const hi = Math.min(dx1, xs[end - 1] + r) - dx0;
      if (lo <= hi) {
        const rowOff = (iy - dy0) * dw + lo;
        const sites = lowerEnvelope(g, rowOff, hi - lo + 1, r2, ws);
        if (sites > 0) {
          let e = 0;
          for (let j = k; j < end; j++) {
            const x = xs[j] - dx0 - lo;
            if (x < 0 || x > hi - lo) continue;
            while (ws.z[e + 1] < x) e++;
            const site = ws.v[e];
            if ((x - site) * (x - site) + g[rowOff + site] <= r2) matched++;
          }
        }
      }
    }
    k = end;
  }
  return matched;
}

/**
 * Column pass, backward half: `g` holds rows since the last feature above (>= FAR when none); take
 * the minimum with rows until the next feature below and square it. Distances above `maxDistance`
 * become NO_SITE.
 */
function verticalPass(g: Int32Array, stride: number, rows: number, next: Int32Array, maxDistance: number): void {
  next.fill(FAR, 0, stride);
  for (let y = rows - 1; y >= 0; y--) {
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const up = g[row + x];
      if (up === 0) next[x] = y;
      const down = next[x] - y;
      const d = up < down ? up : down;
      g[row + x] = d <= maxDistance ? d * d : NO_SITE;
    }
  }
}

interface Workspace {
  /** Squared column distances, row-major over the transform window. */
  g: Int32Array;
  /** Per column: row of the last (forward) or next (backward) feature seen. */
  last: Int32Array;
  /** Envelope: parabola vertices and the boundaries between consecutive parabolas. */
  v: Int32Array;
  z: Float64Array;
}

// One growable workspace: metric calls are synchronous and never re-entrant (also in workers,
// which get their own module instance), so reusing buffers avoids garbage on every frame.
let shared: Workspace = { g: new Int32Array(0), last: new Int32Array(0), v: new Int32Array(0), z: new Float64Array(0) };

function workspace(rowLength: number, cells: number): Workspace {
  if (shared.v.length < rowLength || shared.g.length < cells) {
    const n = Math.max(rowLength, shared.v.length);
    shared = {
      g: shared.g.length < cells ? new Int32Array(cells) : shared.g,
      last: new Int32Array(n),
      v: new Int32Array(n),
      z: new Float64Array(n + 1),
    };
  }
  return shared;
}

/**
 * Lower envelope of the parabolas y = (x - q)² + f[off + q] for the sites q in [0, n) with
 * f <= cap (Felzenszwalb & Huttenlocher, "Distance Transforms of Sampled Functions", alg. 1).
 * Fills ws.v[0..k] with vertices and ws.z[0..k+1] with the ranges they own; returns k + 1 sites.
 */
function lowerEnvelope(f: Int32Array, off: number, n: number, cap: number, ws: Workspace): number {
  const { v, z } = ws;
  let k = -1;
  for (let q = 0; q < n; q++) {
    const fq = f[off + q];
    if (fq > cap) continue;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -Infinity;
      z[1] = Infinity;
      continue;
    }
    let s = (fq + q * q - (f[off + v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    // z[0] = -Infinity, so k never drops below 0.
    while (s <= z[k]) {
      k--;
      s = (fq + q * q - (f[off + v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  return k + 1;
}
