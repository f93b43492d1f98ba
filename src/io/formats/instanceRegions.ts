/**
 * Instance tags in the formats. A tag is a seed pixel and a number (annotator/instances.ts); the
 * instance is the 4-connected region of one state around the seed. Formats that have objects
 * (COCO annotations, VISOR entities) write each tagged region as its own object carrying
 * `instance_id` and `spoc_seed`, and what is left of each state as one more object without them, so
 * the union per state — all a plain reader sees — is the frame's mask unchanged.
 * WhereToChange keeps the tags in its metadata file (frames[].instances); DAVIS cannot carry them
 * (its PNG index is the state).
 */
import { floodRegion } from '../../annotator/paint/flood';
import { MAX_INSTANCE_ID, parseInstanceTags, type InstanceTag } from '../../annotator/instances';
import type { LabelMap } from '../../masks/labelMap';
import { at, describe, type JsonReader } from './json';
import type { ClipAnnotations, LayerSource, SourceTags } from './model';

export type { InstanceTag } from '../../annotator/instances';
export { MAX_INSTANCE_ID, parseInstanceTags };

/** One tagged region, cut out of its frame. */
export interface InstancePart {
  tag: InstanceTag;
  /** 1 actionable, 2 transformed. */
  label: number;
  /** Row-major 0/1 mask of the region, frame-sized. */
  mask: Uint8Array;
}

/**
 * The frame's tagged regions (in tag order; a tag on background, or on a region an earlier tag
 * already took, is left out) and the map with those regions cleared (the untagged rest). Without
 * usable tags `rest` is the map itself.
 */
export function splitInstances(map: LabelMap, tags: readonly InstanceTag[]): { parts: InstancePart[]; rest: LabelMap } {
  const parts: InstancePart[] = [];
  let rest = map;
  const taken = new Uint8Array(tags.length > 0 ? map.data.length : 0);
  for (const tag of [...tags].sort((a, b) => a.id - b.id)) {
    if (tag.x < 0 || tag.y < 0 || tag.x >= map.width || tag.y >= map.height) continue;
    const seed = tag.y * map.width + tag.x;
    if (taken[seed]) continue;
    const region = floodRegion(map, tag.x, tag.y);
    if (!region || (region.label !== 1 && region.label !== 2)) continue;
    if (rest === map) rest = { width: map.width, height: map.height, data: map.data.slice() };
    const mask = new Uint8Array(map.data.length);
    for (let i = 0; i < region.count; i++) {
      const y = region.data[3 * i];
      const from = y * map.width + region.data[3 * i + 1];
      const to = y * map.width + region.data[3 * i + 2];
      mask.fill(1, from, to);
      taken.fill(1, from, to);
      rest.data.fill(0, from, to);
    }
    parts.push({ tag: { id: tag.id, x: tag.x, y: tag.y }, label: region.label, mask });
  }
  return { parts, rest };
}

/** A frame-sized 0/1 mask as a label map of one label (for tracing its contours). */
export function maskAsLabelMap(mask: Uint8Array, width: number, height: number, label: number): LabelMap {
  const data = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) if (mask[i]) data[i] = label;
  return { width, height, data };
}

/** An object's instance fields as read from a file: the number and, when given, the seed. */
export interface ReadInstance {
  id: number;
  seed: { x: number; y: number } | null;
}

/** Reads `instance_id` and `spoc_seed` of a COCO annotation or VISOR entity; null when it has none. */
export function readInstanceFields(r: JsonReader, o: Record<string, unknown>, path: string, width: number, height: number): ReadInstance | null {
  const rawId = r.optional(o, 'instance_id');
  const rawSeed = r.optional(o, 'spoc_seed');
  if (rawId === undefined) {
    if (rawSeed !== undefined) r.fail(at(path, 'spoc_seed'), 'is given without instance_id');
    return null;
  }
  const id = r.integer(rawId, at(path, 'instance_id'), 1, MAX_INSTANCE_ID);
  if (rawSeed === undefined) return { id, seed: null };
  const pair = r.array(rawSeed, at(path, 'spoc_seed'));
  if (pair.length !== 2) r.fail(at(path, 'spoc_seed'), `must be a pixel [x, y], got ${describe(pair)}`);
  const x = r.integer(pair[0], at(at(path, 'spoc_seed'), 0), 0, width - 1);
  const y = r.integer(pair[1], at(at(path, 'spoc_seed'), 1), 0, height - 1);
  return { id, seed: { x, y } };
}

/** The first pixel (row-major) set in a 0/1 mask, or null for an empty mask. */
export function firstPixel(mask: Uint8Array, width: number): { x: number; y: number } | null {
  const i = mask.indexOf(1);
  return i < 0 ? null : { x: i % width, y: Math.floor(i / width) };
}

/**
 * The tags of one frame from the instance objects read: each needs its seed on a pixel of its own
 * state in the final map (an overlap resolved the other way can take it); a number used twice on
 * one frame keeps its first object. Problems are warnings: the masks are imported either way.
 */
export function tagsFromObjects(
  objects: readonly { instance: ReadInstance; label: number; mask: () => Uint8Array; path: string }[],
  map: LabelMap,
  warn: (path: string, problem: string) => void,
): InstanceTag[] {
  const out: InstanceTag[] = [];
  const used = new Set<number>();
  for (const o of objects) {
    if (used.has(o.instance.id)) {
      warn(o.path, `repeats instance_id ${o.instance.id} on its frame; the first object with it was kept as the instance`);
      continue;
    }
    const seed = o.instance.seed ?? firstPixel(o.mask(), map.width);
    if (!seed || map.data[seed.y * map.width + seed.x] !== o.label) {
      warn(o.path, `instance ${o.instance.id}: ${seed ? `its seed [${seed.x}, ${seed.y}] is not on its state in the imported mask` : 'its mask is empty'}; the tag was dropped`);
      continue;
    }
    used.add(o.instance.id);
    out.push({ id: o.instance.id, x: seed.x, y: seed.y });
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The tags of one source (frame index -> tags), empty when the clip has none. */
export function sourceTags(a: Pick<ClipAnnotations, 'instances'>, source: LayerSource): SourceTags {
  return a.instances?.get(source) ?? new Map();
}
