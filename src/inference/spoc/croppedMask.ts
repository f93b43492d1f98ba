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

/** Pixels set in both masks (only the overlap of the two boxes is read). */
export function intersectionArea(a: CroppedMask, b: CroppedMask): number {
  const x0 = Math.max(a.box.x, b.box.x);
  const y0 = Math.max(a.box.y, b.box.y);
  const x1 = Math.min(a.box.x + a.box.w, b.box.x + b.box.w);
  const y1 = Math.min(a.box.y + a.box.h, b.box.y + b.box.h);
  let n = 0;
  for (let y = y0; y < y1; y++) {
    const ra = (y - a.box.y) * a.box.w - a.box.x;
    const rb = (y - b.box.y) * b.box.w - b.box.x;
    for (let x = x0; x < x1; x++) if (a.data[ra + x] && b.data[rb + x]) n++;
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
