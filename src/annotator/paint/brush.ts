/**
 * Brush footprints. A stroke is painted as one capsule per pair of pointer samples (every pixel
 * whose centre lies within r of the segment), not as discs stamped along it: a capsule is the exact
 * limit of stamping with zero spacing, so however fast the pointer moves there are neither gaps nor
 * scalloped edges, and each pointer move costs one pass over the segment's box. A click without a
 * move is the degenerate capsule: a disc.
 *
 * Pixel (x, y) covers [x, x+1) x [y, y+1); it is painted when its centre (x+0.5, y+0.5) is within
 * distance r (inclusive) of the segment.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import type { WriteTable } from './paintRule';

export interface Point {
  x: number;
  y: number;
}

/** Box of the pixels the capsule a-b of radius r may cover, clipped to the map (may be empty). */
export function capsuleBox(a: Point, b: Point, r: number, width: number, height: number): Box {
  const x0 = Math.min(width, Math.max(0, Math.ceil(Math.min(a.x, b.x) - r - 0.5)));
  const y0 = Math.min(height, Math.max(0, Math.ceil(Math.min(a.y, b.y) - r - 0.5)));
  const x1 = Math.min(width, Math.floor(Math.max(a.x, b.x) + r - 0.5) + 1);
  const y1 = Math.min(height, Math.floor(Math.max(a.y, b.y) + r - 0.5) + 1);
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

/**
 * Paints the capsule a-b of radius r through `table`; returns the box it may have changed (empty
 * when it lies outside the map). Each row's covered run is found from its ends inward, so only
 * the pixels near the outline are measured.
 */
export function stampCapsule(map: LabelMap, a: Point, b: Point, r: number, table: WriteTable): Box {
  const box = capsuleBox(a, b, r, map.width, map.height);
  const { data, width } = map;
  const vx = b.x - a.x;
  const vy = b.y - a.y;
  const len2 = vx * vx + vy * vy;
  const r2 = r * r;
  const inside = (px: number, py: number): boolean => {
    const cx = px + 0.5 - a.x;
    const cy = py + 0.5 - a.y;
    let t = len2 === 0 ? 0 : (cx * vx + cy * vy) / len2;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
    const dx = cx - t * vx;
    const dy = cy - t * vy;
    return dx * dx + dy * dy <= r2;
  };
  for (let y = box.y; y < box.y + box.h; y++) {
    // A capsule is convex, so each row meets it in one run of pixels: find its two ends.
    let lo = box.x;
    let hi = box.x + box.w - 1;
    while (lo <= hi && !inside(lo, y)) lo++;
    while (hi >= lo && !inside(hi, y)) hi--;
    const row = y * width;
    for (let i = row + lo, end = row + hi; i <= end; i++) data[i] = table[data[i]];
  }
  return box;
}

/**
 * Where a brush of integer diameter `size` is centred for a pointer at p: odd sizes on the pixel
 * centre, even sizes on the nearest pixel corner. A 1 px brush then paints exactly the pixel under
 * the pointer and every size paints a symmetric footprint, instead of one that depends on the
 * sub-pixel position.
 */
export function snapBrushCentre(p: Point, size: number): Point {
  const odd = Math.round(size) % 2 === 1;
  return odd ? { x: Math.floor(p.x) + 0.5, y: Math.floor(p.y) + 0.5 } : { x: Math.round(p.x), y: Math.round(p.y) };
}
