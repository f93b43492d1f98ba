/**
 * How much to trust a propagated frame (the definition is in docs/inference.md, "Propagation"):
 *
 *   region:  c = (q + s) / 2
 *            q = the model's own quality estimate (SAM's predicted IoU of the mask kept, clamped
 *                to [0, 1]; for the optical-flow fallback, the flow's confidence)
 *            s = shape agreement: IoU of the new mask with the previous region after moving the new
 *                one so the two centroids coincide (motion is expected between frames; a change of
 *                size or shape is what signals drift). s <= min(area ratio), so a mask that
 *                doubles or halves scores at most 0.5.
 *            An empty new mask scores 0.
 *   frame:   the previous regions' area-weighted mean of c (a speck losing track matters less than
 *            the object itself); null when there was nothing to propagate.
 */
import type { CroppedMask } from '../spoc/croppedMask';

function centroid(m: CroppedMask): { x: number; y: number } {
  let sx = 0;
  let sy = 0;
  const { w } = m.box;
  for (let i = 0; i < m.data.length; i++) {
    if (m.data[i]) {
      const x = i % w;
      sx += x;
      sy += (i - x) / w;
    }
  }
  return { x: m.box.x + sx / m.area, y: m.box.y + sy / m.area };
}

/** IoU of a and b after shifting b by the (rounded) difference of their centroids. */
export function shapeAgreement(a: CroppedMask, b: CroppedMask): number {
  if (a.area === 0 || b.area === 0) return 0;
  const ca = centroid(a);
  const cb = centroid(b);
  const dx = Math.round(ca.x - cb.x);
  const dy = Math.round(ca.y - cb.y);
  // b's box moved by (dx, dy), intersected with a's box.
  const bx = b.box.x + dx;
  const by = b.box.y + dy;
  const x0 = Math.max(a.box.x, bx);
  const y0 = Math.max(a.box.y, by);
  const x1 = Math.min(a.box.x + a.box.w, bx + b.box.w);
  const y1 = Math.min(a.box.y + a.box.h, by + b.box.h);
  let inter = 0;
  for (let y = y0; y < y1; y++) {
    const ra = (y - a.box.y) * a.box.w - a.box.x;
    const rb = (y - by) * b.box.w - bx;
    for (let x = x0; x < x1; x++) if (a.data[ra + x] && b.data[rb + x]) inter++;
  }
  return inter / (a.area + b.area - inter);
}

export function regionConfidence(quality: number, previous: CroppedMask, next: CroppedMask): number {
  if (next.area === 0) return 0;
  const q = Math.min(1, Math.max(0, Number.isFinite(quality) ? quality : 0));
  return (q + shapeAgreement(previous, next)) / 2;
}

/** Area-weighted mean of the regions' confidences (weights: the previous areas); null for none. */
export function frameConfidence(regions: readonly { previousArea: number; confidence: number }[]): number | null {
  let wsum = 0;
  let sum = 0;
  for (const r of regions) {
    wsum += r.previousArea;
    sum += r.previousArea * r.confidence;
  }
  return wsum > 0 ? sum / wsum : null;
}
