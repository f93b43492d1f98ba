/**
 * Instance tags: SPOC labels every instance of the object, and tracking needs to know which region
 * is which. A tag is a seed pixel with an instance number; the instance is the connected region of
 * the label map that contains the seed. Label maps stay the source of truth: repainting a region
 * moves its instance with it, and a tag whose seed now lies on background is stale and ignored.
 * Stored in the layer's `instances` field as { tags: [{ id, x, y }] }.
 */
import type { Box, LabelMap } from '../masks/labelMap';
import { floodRegion, type Region } from './paint/flood';

export interface InstanceTag {
  /** Instance number, 1.. (the same object keeps its number across frames). */
  id: number;
  /** A pixel inside the region (integer image coordinates). */
  x: number;
  y: number;
}

export interface InstanceRegion {
  id: number;
  /** The state of the region: 1 actionable or 2 transformed. */
  label: number;
  area: number;
  box: Box;
  /** Where to draw the number: the seed. */
  x: number;
  y: number;
}

export const MAX_INSTANCE_ID = 999;

/** Reads stored tags defensively: anything malformed is dropped, never thrown (tags are optional). */
export function parseInstanceTags(json: unknown): InstanceTag[] {
  const tags = (json as { tags?: unknown } | null | undefined)?.tags;
  if (!Array.isArray(tags)) return [];
  return tags.filter(
    (t): t is InstanceTag =>
      typeof t === 'object' && t !== null &&
      Number.isInteger((t as InstanceTag).id) && (t as InstanceTag).id >= 1 && (t as InstanceTag).id <= MAX_INSTANCE_ID &&
      Number.isInteger((t as InstanceTag).x) && Number.isInteger((t as InstanceTag).y),
  );
}

function stateRegion(map: LabelMap, x: number, y: number): Region | null {
  const region = floodRegion(map, x, y);
  return region && (region.label === 1 || region.label === 2) ? region : null;
}

/** Whether pixel (x, y) belongs to the region (its spans are triples y, x0, x1). */
function contains(region: Region, x: number, y: number): boolean {
  const d = region.data;
  for (let i = 0; i < region.count; i++) {
    if (d[3 * i] === y && x >= d[3 * i + 1] && x < d[3 * i + 2]) return true;
  }
  return false;
}

/**
 * Tags the region under (x, y) as instance `id`. The region's previous tag (whatever its number) and
 * any other tag with the same number on this frame are replaced, so a number names one region.
 * Returns the new list, or null when (x, y) is background.
 */
export function tagRegion(map: LabelMap, tags: readonly InstanceTag[], x: number, y: number, id: number): InstanceTag[] | null {
  const px = Math.floor(x);
  const py = Math.floor(y);
  const region = stateRegion(map, px, py);
  if (!region) return null;
  const kept = tags.filter((t) => t.id !== id && !contains(region, t.x, t.y));
  return [...kept, { id, x: px, y: py }].sort((a, b) => a.id - b.id);
}

/** The regions the tags name on this map; stale tags (seed on background) are left out. */
export function resolveInstances(map: LabelMap, tags: readonly InstanceTag[]): InstanceRegion[] {
  const out: InstanceRegion[] = [];
  for (const t of tags) {
    const region = stateRegion(map, t.x, t.y);
    if (!region) continue;
    out.push({ id: t.id, label: region.label, area: region.area, box: { ...region.box }, x: t.x, y: t.y });
  }
  return out;
}
