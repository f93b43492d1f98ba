/**
 * Putting the propagated regions together into frame t+1's label map, and merging that with what
 * t+1 already holds.
 *
 * Regions may overlap on the new frame (SAM grows two neighbouring regions into each other). The
 * more confident region wins a contested pixel; on a tie the transformed one does, since a state
 * change only goes actionable -> transformed and a pixel already transformed at t cannot go back.
 */
import { createLabelMap, type LabelMap, type StateLabel } from '../../masks/labelMap';
import type { CroppedMask } from '../spoc/croppedMask';

export interface CombineItem {
  label: StateLabel;
  mask: CroppedMask;
  confidence: number;
}

export function combineRegions(width: number, height: number, items: readonly CombineItem[]): LabelMap {
  const map = createLabelMap(width, height);
  // Paint the weakest first so stronger ones overwrite; equal confidence: 1 before 2.
  const order = items
    .map((item, k) => ({ item, k }))
    .sort((a, b) => a.item.confidence - b.item.confidence || a.item.label - b.item.label || a.k - b.k);
  for (const { item } of order) {
    const { box, data } = item.mask;
    if (item.mask.frameWidth !== width || item.mask.frameHeight !== height) {
      throw new RangeError(`region mask is for a ${item.mask.frameWidth}x${item.mask.frameHeight} frame, not ${width}x${height}`);
    }
    for (let y = 0; y < box.h; y++) {
      const row = (box.y + y) * width + box.x;
      for (let x = 0; x < box.w; x++) if (data[y * box.w + x]) map.data[row + x] = item.label;
    }
  }
  return map;
}

/**
 * What to do when the next frame already has masks:
 *   'replace'  the propagated map replaces the frame's masks (one undoable step, so recoverable);
 *   'fill'     only background pixels take propagated labels — nothing painted is ever changed.
 */
export type MergeMode = 'replace' | 'fill';

export function mergeIntoExisting(existing: LabelMap, propagated: LabelMap, mode: MergeMode): Uint8Array {
  if (existing.width !== propagated.width || existing.height !== propagated.height) {
    throw new RangeError(`cannot merge a ${propagated.width}x${propagated.height} map into a ${existing.width}x${existing.height} frame`);
  }
  if (mode === 'replace') return propagated.data.slice();
  const out = existing.data.slice();
  for (let i = 0; i < out.length; i++) if (out[i] === 0) out[i] = propagated.data[i];
  return out;
}

/** Whether a map has any state pixel (1 or 2). */
export function hasMasks(map: LabelMap): boolean {
  const d = map.data;
  for (let i = 0; i < d.length; i++) if (d[i] === 1 || d[i] === 2) return true;
  return false;
}
