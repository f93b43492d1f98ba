/**
 * Instance tags across propagation: a region of frame t that carried instance #k hands #k to its
 * successor on t+1. A tag is a seed pixel (src/annotator/instances.ts), so the new seed is the
 * deepest pixel of the successor's pixels that kept the region's state in the combined map — a
 * pixel another region won is not the instance's any more.
 */
import type { LabelMap } from '../../masks/labelMap';
import type { CroppedMask } from '../spoc/croppedMask';
import { interiorPoints } from './prompts';

export interface CarriedTag {
  id: number;
  x: number;
  y: number;
}

export interface TagSuccessor {
  instanceId: number | null;
  label: 1 | 2;
  /** The region's mask on t+1 (null when it vanished). */
  mask: CroppedMask | null;
}

export function carryTags(map: LabelMap, successors: readonly TagSuccessor[]): CarriedTag[] {
  const out: CarriedTag[] = [];
  for (const s of successors) {
    if (s.instanceId === null || !s.mask || s.mask.area === 0 || out.some((t) => t.id === s.instanceId)) continue;
    const { x: bx, y: by, w, h } = s.mask.box;
    const kept = new Uint8Array(w * h);
    let area = 0;
    for (let j = 0; j < h; j++) {
      for (let i = 0; i < w; i++) {
        if (s.mask.data[j * w + i] && map.data[(by + j) * map.width + bx + i] === s.label) {
          kept[j * w + i] = 1;
          area++;
        }
      }
    }
    if (area === 0) continue;
    const [seed] = interiorPoints({ ...s.mask, data: kept, area }, 1);
    out.push({ id: s.instanceId, x: seed.x, y: seed.y });
  }
  return out;
}

/**
 * The tags a frame keeps after propagated masks were written into it: replacing the frame takes
 * the carried tags; filling only empty pixels keeps the frame's own tags and adds the carried ones
 * whose numbers it does not have yet.
 */
export function mergeTags(existing: readonly CarriedTag[], carried: readonly CarriedTag[], mode: 'replace' | 'fill'): CarriedTag[] {
  if (mode === 'replace') return [...carried];
  return [...existing, ...carried.filter((c) => !existing.some((e) => e.id === c.id))];
}
