/**
 * Non-maximum suppression over mask proposals (SPOC Table C: NMS at 0.9 on SAM's 32x32-grid
 * proposals) with a minimum-area filter (SPOC's tracker drops masks under 50 px).
 *
 * IoU is measured on the masks by default. SAM's automatic mask generator uses box IoU
 * (torchvision batched_nms); that suppresses nested but different masks whose boxes coincide — the
 * peeled flesh inside an unpeeled banana, exactly the pairs SPOC must keep apart — so box IoU is
 * available for parity but not the default. As in torchvision, a proposal is suppressed when its
 * IoU with a kept, higher-scoring one is strictly greater than the threshold.
 */
import type { Box } from '../../masks/labelMap';
import { boxIou, maskIou, type CroppedMask } from './croppedMask';

export interface Proposal {
  mask: CroppedMask;
  /** Higher is better (SAM's predicted IoU, possibly times a stability score). */
  score: number;
}

export interface NmsOptions {
  iouThreshold?: number;
  minArea?: number;
  by?: 'mask' | 'box';
}

export const SPOC_NMS_DEFAULTS = { iouThreshold: 0.9, minArea: 50, by: 'mask' } as const;

/** Indices of the kept proposals, best score first (ties: lower index first). */
export function nms(proposals: readonly Proposal[], options: NmsOptions = {}): number[] {
  const { iouThreshold, minArea, by } = { ...SPOC_NMS_DEFAULTS, ...options };
  const order = proposals
    .map((_, i) => i)
    .filter((i) => proposals[i].mask.area >= minArea && proposals[i].mask.area > 0)
    .sort((a, b) => proposals[b].score - proposals[a].score || a - b);
  const kept: number[] = [];
  for (const i of order) {
    const m = proposals[i].mask;
    let suppressed = false;
    for (const k of kept) {
      const o = proposals[k].mask;
      // Cheap bounds before counting pixels: disjoint boxes, areas too different to exceed the
      // threshold, or too little box overlap (the intersection is at most the boxes' overlap).
      const boxInter = boxIntersection(m.box, o.box);
      if (boxInter === 0) continue;
      if (by === 'mask') {
        if (Math.min(m.area, o.area) / Math.max(m.area, o.area) <= iouThreshold) continue;
        const most = Math.min(boxInter, m.area, o.area);
        if (most / (m.area + o.area - most) <= iouThreshold) continue;
      }
      const iou = by === 'box' ? boxIou(m.box, o.box) : maskIou(m, o);
      if (iou > iouThreshold) {
        suppressed = true;
        break;
      }
    }
    if (!suppressed) kept.push(i);
  }
  return kept;
}

function boxIntersection(a: Box, b: Box): number {
  const iw = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const ih = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return iw > 0 && ih > 0 ? iw * ih : 0;
}
