/**
 * Measurements on label maps and pixel boxes: per-label area, bounding box, overlap/IoU, and the
 * box arithmetic that dirty rectangles and undo patches need. Boxes are inclusive-exclusive
 * ({x, y, w, h} covers x..x+w-1, y..y+h-1); a box with w or h <= 0 is empty.
 */
import type { Box, LabelMap } from './labelMap';

/** Pixels per label value: result[v] = number of pixels equal to v. */
export function labelHistogram(map: LabelMap): Uint32Array {
  const hist = new Uint32Array(256);
  const { data } = map;
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  return hist;
}

/** Number of pixels equal to `label`. */
export function labelArea(map: LabelMap, label: number): number {
  const { data } = map;
  let n = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === label) n++;
  return n;
}

/**
 * Tight box around the pixels equal to `label`, or null when there are none.
 * Finds the first and last rows from both ends, then narrows the columns row by row, reading only
 * the pixels left of the best left edge and right of the best right edge so far.
 */
export function labelBbox(map: LabelMap, label: number): Box | null {
  const { width: w, data } = map;
  const first = data.indexOf(label);
  if (first < 0) return null;
  const last = data.lastIndexOf(label);
  const y0 = Math.floor(first / w);
  const y1 = Math.floor(last / w);
  let x0 = first - y0 * w;
  let x1 = last - y1 * w;
  if (x0 > x1) [x0, x1] = [x1, x0];
  for (let y = y0; y <= y1; y++) {
    const row = y * w;
    for (let x = 0; x < x0; x++) {
      if (data[row + x] === label) {
        x0 = x;
        break;
      }
    }
    for (let x = w - 1; x > x1; x--) {
      if (data[row + x] === label) {
        x1 = x;
        break;
      }
    }
  }
  return { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/**
 * Tight box around every nonzero pixel, or null when the map is all background. What the canvas
 * repaints and outlines on a frame switch: most frames hold one object in a corner of the picture.
 * Rows are tested four pixels at a time (one 32-bit read) where the buffer's offset allows it.
 */
export function contentBox(map: LabelMap): Box | null {
  const { width: w, height: h, data } = map;
  const words = data.byteOffset % 4 === 0 && w % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, (w * h) / 4) : null;
  const rowHasContent = (y: number): boolean => {
    if (words) {
      for (let i = (y * w) / 4, end = i + w / 4; i < end; i++) if (words[i] !== 0) return true;
      return false;
    }
    for (let i = y * w, end = i + w; i < end; i++) if (data[i] !== 0) return true;
    return false;
  };
  let y0 = 0;
  while (y0 < h && !rowHasContent(y0)) y0++;
  if (y0 === h) return null;
  let y1 = h - 1;
  while (!rowHasContent(y1)) y1--;
  let x0 = w;
  let x1 = -1;
  for (let y = y0; y <= y1; y++) {
    const row = y * w;
    for (let x = 0; x < x0; x++) {
      if (data[row + x] !== 0) {
        x0 = x;
        break;
      }
    }
    for (let x = w - 1; x > x1; x--) {
      if (data[row + x] !== 0) {
        x1 = x;
        break;
      }
    }
  }
  return { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

export interface PixelOverlap {
  intersection: number;
  union: number;
}

/** Pixels equal to `label` in both maps, and in either. */
export function labelOverlap(a: LabelMap, b: LabelMap, label: number): PixelOverlap {
  assertSameSize(a, b);
  const da = a.data;
  const db = b.data;
  let intersection = 0;
  let union = 0;
  for (let i = 0; i < da.length; i++) {
    const ia = da[i] === label;
    const ib = db[i] === label;
    if (ia || ib) {
      union++;
      if (ia && ib) intersection++;
    }
  }
  return { intersection, union };
}

/**
 * IoU of one label between two maps. When neither map has the label the ratio is undefined;
 * `whenBothEmpty` decides: 0 by default as COCO's rleIou, pass 1 for DAVIS J's convention.
 */
export function labelIou(a: LabelMap, b: LabelMap, label: number, whenBothEmpty = 0): number {
  const { intersection, union } = labelOverlap(a, b, label);
  return union === 0 ? whenBothEmpty : intersection / union;
}

export function isEmptyBox(box: Box): boolean {
  return !(box.w > 0 && box.h > 0);
}

/** Smallest box holding both; an empty box contributes nothing (union of two empties is empty). */
export function boxUnion(a: Box, b: Box): Box {
  if (isEmptyBox(a)) return isEmptyBox(b) ? { x: 0, y: 0, w: 0, h: 0 } : { ...b };
  if (isEmptyBox(b)) return { ...a };
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/**
 * The whole pixels a box touches, clipped to a width x height image. Fractional edges round
 * outward (a brush dab at x = 3.4 touches pixel 3), so the result always covers the input.
 * The result may be empty (w or h = 0) when the box lies outside the image.
 */
export function clampBox(box: Box, width: number, height: number): Box {
  const x0 = Math.max(0, Math.min(width, Math.floor(box.x)));
  const y0 = Math.max(0, Math.min(height, Math.floor(box.y)));
  const x1 = Math.max(x0, Math.min(width, Math.ceil(box.x + box.w)));
  const y1 = Math.max(y0, Math.min(height, Math.ceil(box.y + box.h)));
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

function assertSameSize(a: LabelMap, b: LabelMap): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new RangeError(`label maps differ in size: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
}
