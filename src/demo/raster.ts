/**
 * A tiny software rasteriser shared by the demo scenes.
 *
 * Shapes are convex polygons in a local pixel frame; an item places a shape at an integer anchor
 * (ax, ay). A pixel (x, y) is covered when its centre, taken in local coordinates
 * (x - ax + 0.5, y - ay + 0.5), lies inside the polygon (half-open rule, no anti-aliasing). The very
 * same span computation feeds both the colour pass and the label pass, so the ground truth equals
 * what was drawn pixel for pixel; and since anchors are integers, moving an item by whole pixels
 * moves its pixel set exactly (areas are translation invariant).
 */
import { dcos, dsin, TAU } from './math';

// ---------------------------------------------------------------------------------------------
// Colours: packed 32-bit RGBA words matching the byte order of a Uint8ClampedArray on this host.

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Packs r, g, b (0..255, clamped and rounded) with alpha 255 into a word for a Uint32Array view. */
export function rgb(r: number, g: number, b: number): number {
  const R = r <= 0 ? 0 : r >= 255 ? 255 : Math.round(r);
  const G = g <= 0 ? 0 : g >= 255 ? 255 : Math.round(g);
  const B = b <= 0 ? 0 : b >= 255 ? 255 : Math.round(b);
  return LITTLE_ENDIAN ? ((0xff << 24) | (B << 16) | (G << 8) | R) >>> 0 : ((R << 24) | (G << 16) | (B << 8) | 0xff) >>> 0;
}

export type Rgb = readonly [number, number, number];

/**
 * Multiplies the RGB of every pixel by k (alpha kept), rounding and clamping: one table lookup per
 * channel on 32-bit words.
 */
export function applyBrightness(u32: Uint32Array, k: number, lut: Uint8Array = new Uint8Array(256)): void {
  for (let v = 0; v < 256; v++) lut[v] = Math.min(255, Math.round(v * k));
  const n = u32.length;
  if (LITTLE_ENDIAN) {
    for (let i = 0; i < n; i++) {
      const c = u32[i];
      u32[i] = (c & 0xff000000) | (lut[(c >>> 16) & 255] << 16) | (lut[(c >>> 8) & 255] << 8) | lut[c & 255];
    }
  } else {
    for (let i = 0; i < n; i++) {
      const c = u32[i];
      u32[i] = ((lut[c >>> 24] << 24) | (lut[(c >>> 16) & 255] << 16) | (lut[(c >>> 8) & 255] << 8) | (c & 255)) >>> 0;
    }
  }
}

/** rgb() of a colour scaled by k. */
export function shadeRgb(c: Rgb, k: number): number {
  return rgb(c[0] * k, c[1] * k, c[2] * k);
}

export function mixRgb(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

// ---------------------------------------------------------------------------------------------
// Shapes

/** A convex polygon (vertices in order, either winding) in local pixel coordinates. */
export interface Shape {
  readonly pts: Float64Array;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

export function polygon(points: ArrayLike<number>): Shape {
  if (points.length < 6 || points.length % 2 !== 0) throw new RangeError('a polygon needs at least 3 points');
  const pts = Float64Array.from(points);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < pts.length; i += 2) {
    const x = pts[i];
    const y = pts[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { pts, minX, minY, maxX, maxY };
}

/** Convex hull (Andrew's monotone chain) of a point cloud [x0, y0, x1, y1, ...]. */
export function hull(points: ArrayLike<number>): Shape {
  const n = points.length / 2;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  idx.sort((a, b) => points[2 * a] - points[2 * b] || points[2 * a + 1] - points[2 * b + 1]);
  const cross = (o: number, a: number, b: number): number =>
    (points[2 * a] - points[2 * o]) * (points[2 * b + 1] - points[2 * o + 1]) -
    (points[2 * a + 1] - points[2 * o + 1]) * (points[2 * b] - points[2 * o]);
  const lower: number[] = [];
  for (const i of idx) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], i) <= 0) lower.pop();
    lower.push(i);
  }
  const upper: number[] = [];
  for (let k = idx.length - 1; k >= 0; k--) {
    const i = idx[k];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], i) <= 0) upper.pop();
    upper.push(i);
  }
  lower.pop();
  upper.pop();
  const out: number[] = [];
  for (const i of lower.concat(upper)) out.push(points[2 * i], points[2 * i + 1]);
  return polygon(out);
}

function segmentsFor(r: number): number {
  return Math.max(8, Math.min(96, Math.ceil((TAU * r) / 3)));
}

/** Ellipse centred at (cx, cy) with radii rx, ry, rotated by rot radians. */
export function ellipse(cx: number, cy: number, rx: number, ry: number, rot = 0, segments = segmentsFor(Math.max(rx, ry))): Shape {
  const c = dcos(rot);
  const s = dsin(rot);
  const pts: number[] = [];
  for (let i = 0; i < segments; i++) {
    const a = (TAU * i) / segments;
    const ex = rx * dcos(a);
    const ey = ry * dsin(a);
    pts.push(cx + ex * c - ey * s, cy + ex * s + ey * c);
  }
  return polygon(pts);
}

function circlePoints(out: number[], cx: number, cy: number, r: number, segments: number): void {
  for (let i = 0; i < segments; i++) {
    const a = (TAU * i) / segments;
    out.push(cx + r * dcos(a), cy + r * dsin(a));
  }
}

/** Convex hull of two discs: a capsule (r0 = r1) or a tapered stroke. */
export function capsule(x0: number, y0: number, x1: number, y1: number, r0: number, r1 = r0): Shape {
  const pts: number[] = [];
  circlePoints(pts, x0, y0, r0, segmentsFor(r0));
  circlePoints(pts, x1, y1, r1, segmentsFor(r1));
  return hull(pts);
}

export function rect(x: number, y: number, w: number, h: number): Shape {
  return polygon([x, y, x + w, y, x + w, y + h, x, y + h]);
}

/** Rectangle with rounded corners, optionally rotated by rot about its centre. */
export function roundedRect(x: number, y: number, w: number, h: number, r: number, rot = 0): Shape {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  const pts: number[] = [];
  const seg = Math.max(2, Math.ceil(segmentsFor(rr) / 4)) * 4;
  circlePoints(pts, x + rr, y + rr, rr, seg);
  circlePoints(pts, x + w - rr, y + rr, rr, seg);
  circlePoints(pts, x + w - rr, y + h - rr, rr, seg);
  circlePoints(pts, x + rr, y + h - rr, rr, seg);
  if (rot !== 0) rotatePoints(pts, x + w / 2, y + h / 2, rot);
  return hull(pts);
}

export function rotatePoints(pts: number[], cx: number, cy: number, rot: number): void {
  const c = dcos(rot);
  const s = dsin(rot);
  for (let i = 0; i < pts.length; i += 2) {
    const dx = pts[i] - cx;
    const dy = pts[i + 1] - cy;
    pts[i] = cx + dx * c - dy * s;
    pts[i + 1] = cy + dx * s + dy * c;
  }
}

// ---------------------------------------------------------------------------------------------
// Coverage

/** First and last+1 local row covered by the shape. */
export function rowRange(shape: Shape): [number, number] {
  return [Math.ceil(shape.minY - 0.5), Math.ceil(shape.maxY - 0.5)];
}

/** First and last+1 local column that may be covered by the shape. */
export function colRange(shape: Shape): [number, number] {
  return [Math.ceil(shape.minX - 0.5), Math.ceil(shape.maxX - 0.5)];
}

const span: [number, number] = [0, 0];

/**
 * Local columns [k0, k1) covered on local row r (pixel centres at r + 0.5), or null. The returned
 * tuple is reused between calls.
 */
export function rowSpan(shape: Shape, r: number): [number, number] | null {
  const yc = r + 0.5;
  if (yc < shape.minY || yc >= shape.maxY) return null;
  const p = shape.pts;
  const n = p.length;
  let lo = Infinity;
  let hi = -Infinity;
  let x0 = p[n - 2];
  let y0 = p[n - 1];
  for (let i = 0; i < n; i += 2) {
    const x1 = p[i];
    const y1 = p[i + 1];
    if (yc >= y0 !== yc >= y1) {
      const x = x0 + ((yc - y0) * (x1 - x0)) / (y1 - y0);
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    x0 = x1;
    y0 = y1;
  }
  if (!(lo < hi)) return null;
  const k0 = Math.ceil(lo - 0.5);
  const k1 = Math.ceil(hi - 0.5);
  if (k0 >= k1) return null;
  span[0] = k0;
  span[1] = k1;
  return span;
}

// ---------------------------------------------------------------------------------------------
// Paints and targets

export interface ColorTarget {
  readonly width: number;
  readonly height: number;
  readonly u32: Uint32Array;
  readonly u8: Uint8ClampedArray;
}

/** Writes n pixels of a row starting at word index i; (lx, ly) are local coords of the first one. */
export type ColorSpan = (t: ColorTarget, i: number, n: number, lx: number, ly: number) => void;
export type LabelSpan = (out: Uint8Array, i: number, n: number, lx: number, ly: number) => void;

export interface Paint {
  readonly color: ColorSpan;
  /** A fixed label, 'keep' for overlays (shadows) that leave labels alone, or a per-pixel writer. */
  readonly label: number | 'keep' | LabelSpan;
}

export function solidPaint(color: number, label: number): Paint {
  return { color: (t, i, n) => t.u32.fill(color, i, i + n), label };
}

/** Precomputed appearance in a local pixel box: px[(ly - y0) * w + (lx - x0)]. */
export interface Sprite {
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  readonly px: Uint32Array;
}

/** Renders shade(lx, ly) for every local pixel in the box [x0, x0 + w) x [y0, y0 + h). */
export function makeSprite(x0: number, y0: number, w: number, h: number, shade: (lx: number, ly: number) => number): Sprite {
  const px = new Uint32Array(w * h);
  for (let r = 0; r < h; r++) for (let k = 0; k < w; k++) px[r * w + k] = shade(x0 + k, y0 + r);
  return { x0, y0, w, h, px };
}

/** A sprite whose box covers every pixel any of the shapes can touch (plus a 1 px margin). */
export function spriteFor(shapes: readonly Shape[], shade: (lx: number, ly: number) => number): Sprite {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const s of shapes) {
    const [c0, c1] = colRange(s);
    const [r0, r1] = rowRange(s);
    x0 = Math.min(x0, c0 - 1);
    x1 = Math.max(x1, c1 + 1);
    y0 = Math.min(y0, r0 - 1);
    y1 = Math.max(y1, r1 + 1);
  }
  return makeSprite(x0, y0, x1 - x0, y1 - y0, shade);
}

export function spritePaint(sprite: Sprite, label: number): Paint {
  const { px, w, x0, y0 } = sprite;
  return {
    color: (t, i, n, lx, ly) => {
      const s = (ly - y0) * w + (lx - x0);
      const out = t.u32;
      if (n > 256) out.set(px.subarray(s, s + n), i);
      else for (let j = 0; j < n; j++) out[i + j] = px[s + j];
    },
    label,
  };
}

/** Multiplies the colour already there by factor (0..1); labels are kept. For shadows. */
export function darkenPaint(factor: number): Paint {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.round(v * factor);
  return {
    color: (t, i, n) => {
      const d = t.u8;
      for (let b = i * 4, e = (i + n) * 4; b < e; b += 4) {
        d[b] = lut[d[b]];
        d[b + 1] = lut[d[b + 1]];
        d[b + 2] = lut[d[b + 2]];
      }
    },
    label: 'keep',
  };
}

// ---------------------------------------------------------------------------------------------
// Items and drawing

export interface DrawItem {
  readonly shape: Shape;
  /** Integer anchor: local (0, 0) lands on pixel corner (ax, ay). */
  readonly ax: number;
  readonly ay: number;
  readonly paint: Paint;
  /** Optional local column clip [clipK0, clipK1). */
  readonly clipK0?: number;
  readonly clipK1?: number;
}

/** Calls fn(y, x0, x1, k0, r) for each frame row span covered by the item, clipped to the frame. */
export function forEachSpan(
  item: DrawItem,
  width: number,
  height: number,
  dx: number,
  dy: number,
  fn: (y: number, x0: number, x1: number, k0: number, r: number) => void,
): void {
  const ax = item.ax + dx;
  const ay = item.ay + dy;
  if (!Number.isInteger(ax) || !Number.isInteger(ay)) throw new RangeError('item anchors must be integers');
  const [r0, r1] = rowRange(item.shape);
  const yStart = Math.max(r0 + ay, 0);
  const yEnd = Math.min(r1 + ay, height);
  const kMin = Math.max(item.clipK0 ?? -Infinity, -ax);
  const kMax = Math.min(item.clipK1 ?? Infinity, width - ax);
  for (let y = yStart; y < yEnd; y++) {
    const r = y - ay;
    const sp = rowSpan(item.shape, r);
    if (sp === null) continue;
    const k0 = Math.max(sp[0], kMin);
    const k1 = Math.min(sp[1], kMax);
    if (k0 < k1) fn(y, k0 + ax, k1 + ax, k0, r);
  }
}

/** Paints the item's colours. */
export function drawColor(target: ColorTarget, item: DrawItem, dx = 0, dy = 0): void {
  const paint = item.paint.color;
  const w = target.width;
  forEachSpan(item, w, target.height, dx, dy, (y, x0, x1, k0, r) => paint(target, y * w + x0, x1 - x0, k0, r));
}

/** Paints the item's labels (overlays with label 'keep' are skipped). */
export function drawLabels(labels: Uint8Array, width: number, height: number, item: DrawItem, dx = 0, dy = 0): void {
  const lab = item.paint.label;
  if (lab === 'keep') return;
  if (typeof lab === 'number') {
    forEachSpan(item, width, height, dx, dy, (y, x0, x1) => labels.fill(lab, y * width + x0, y * width + x1));
  } else {
    forEachSpan(item, width, height, dx, dy, (y, x0, x1, k0, r) => lab(labels, y * width + x0, x1 - x0, k0, r));
  }
}

/** Sets value on every pixel the item covers, whatever its paint (for layer masks). */
export function drawMask(mask: Uint8Array, width: number, height: number, item: DrawItem, value: number, dx = 0, dy = 0): void {
  forEachSpan(item, width, height, dx, dy, (y, x0, x1) => mask.fill(value, y * width + x0, y * width + x1));
}
