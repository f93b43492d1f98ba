/**
 * Polygon to COCO RLE, reproducing pycocotools' rleFrPoly bit for bit (how COCO, LVIS and VISOR
 * polygons become masks). The reference walks the edges on a 5x upsampled grid, keeps the points
 * where an edge crosses a pixel-centre column, and turns those into run boundaries; its rounding
 * ((int)(v + .5), which truncates toward zero) and float steps are kept as they are so every pixel
 * matches. Vertices are [x0, y0, x1, y1, ...] in COCO's pixel coordinates.
 */
import { MaskFormatError } from './errors';
import { checkRleSize, makeRle, type CocoRle } from './rle';

const SCALE = 5;
/** Vertices farther out than this are certainly bad data (and would overflow the int grid). */
const MAX_COORD = 1e6;
/** Upsampled boundary points; ~800k px of perimeter, far beyond any real annotation. */
const MAX_POINTS = 4 * 1024 * 1024;

/** C's (int) cast of a double: truncation toward zero. */
const toInt = (v: number): number => Math.trunc(v);

/** Column-major run counts of the rasterised polygon. */
export function polygonCounts(xy: readonly number[], h: number, w: number): Uint32Array {
  checkRleSize(h, w);
  if (xy.length % 2 !== 0) throw new MaskFormatError(`polygon has an odd number of coordinates (${xy.length})`);
  for (let i = 0; i < xy.length; i++) {
    if (!Number.isFinite(xy[i]) || Math.abs(xy[i]) > MAX_COORD) {
      throw new MaskFormatError(`polygon coordinate ${i} (${xy[i]}) is not a number within ±${MAX_COORD}`);
    }
  }
  const k = xy.length / 2;
  if (k === 0) return Uint32Array.of(h * w);

  // Upsample the vertices and close the ring.
  const x = new Int32Array(k + 1);
  const y = new Int32Array(k + 1);
  for (let j = 0; j < k; j++) x[j] = toInt(SCALE * xy[j * 2] + 0.5);
  x[k] = x[0];
  for (let j = 0; j < k; j++) y[j] = toInt(SCALE * xy[j * 2 + 1] + 0.5);
  y[k] = y[0];

  // Points densely along every edge, one per step of the longer axis.
  let m = 0;
  for (let j = 0; j < k; j++) m += Math.max(Math.abs(x[j] - x[j + 1]), Math.abs(y[j] - y[j + 1])) + 1;
  if (m > MAX_POINTS) throw new MaskFormatError(`polygon is too long to rasterise (${m} boundary points)`);
  const u = new Int32Array(m);
  const v = new Int32Array(m);
  m = 0;
  for (let j = 0; j < k; j++) {
    let xs = x[j];
    let xe = x[j + 1];
    let ys = y[j];
    let ye = y[j + 1];
    const dx = Math.abs(xe - xs);
    const dy = Math.abs(ys - ye);
    const flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) {
      [xs, xe] = [xe, xs];
      [ys, ye] = [ye, ys];
    }
    // dx = dy = 0 makes s NaN, as in C; that single point is never used (see the next loop).
    const s = dx >= dy ? (ye - ys) / dx : (xe - xs) / dy;
    if (dx >= dy) {
      for (let d = 0; d <= dx; d++) {
        const t = flip ? dx - d : d;
        u[m] = t + xs;
        v[m] = toInt(ys + s * t + 0.5);
        m++;
      }
    } else {
      for (let d = 0; d <= dy; d++) {
        const t = flip ? dy - d : d;
        v[m] = t + ys;
        u[m] = toInt(xs + s * t + 0.5);
        m++;
      }
    }
  }

  // Keep the points where the boundary crosses a pixel-centre column, downsampled.
  const total = m;
  const bx = new Int32Array(total);
  const by = new Int32Array(total);
  m = 0;
  for (let j = 1; j < total; j++) {
    if (u[j] === u[j - 1]) continue;
    let xd = u[j] < u[j - 1] ? u[j] : u[j] - 1;
    xd = (xd + 0.5) / SCALE - 0.5;
    if (Math.floor(xd) !== xd || xd < 0 || xd > w - 1) continue;
    let yd = v[j] < v[j - 1] ? v[j] : v[j - 1];
    yd = (yd + 0.5) / SCALE - 0.5;
    if (yd < 0) yd = 0;
    else if (yd > h) yd = h;
    yd = Math.ceil(yd);
    bx[m] = xd;
    by[m] = yd;
    m++;
  }

  // Boundary positions (column-major) to runs; coinciding boundaries cancel.
  const a = new Uint32Array(m + 1);
  for (let j = 0; j < m; j++) a[j] = bx[j] * h + by[j];
  a[m] = h * w;
  a.sort();
  let prev = 0;
  for (let j = 0; j < a.length; j++) {
    const t = a[j];
    a[j] -= prev;
    prev = t;
  }
  const b = new Uint32Array(a.length);
  let j = 0;
  let n = 0;
  b[n++] = a[j++];
  while (j < a.length) {
    if (a[j] > 0) {
      b[n++] = a[j++];
    } else {
      j++;
      if (j < a.length) b[n - 1] += a[j++];
    }
  }
  return b.slice(0, n);
}

/** Polygon [x0, y0, x1, y1, ...] to COCO RLE, as pycocotools frPyObjects on one polygon. */
export function rleFromPolygon(xy: readonly number[], h: number, w: number): CocoRle {
  return makeRle(polygonCounts(xy, h, w), h, w);
}
