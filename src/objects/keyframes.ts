/**
 * Keyframe marks and interpolated provenance as per-frame facts of a layer's objects
 * (docs/objects.md "Keyframes and interpolation"): pure functions over `LayerObject[]`, handed to
 * the editor session's edit as `objects` (EditorSession.edit, EditOptions.objects).
 */
import { makeRle } from '../masks/rle';
import type { LayerObject, Provenance } from '../store/types';
import type { ObjectKeyframe } from './interpolation/spans';

/** Marks object `id` as a keyframe on the frame, or unmarks it when it is one; an object without pixels gets an empty entry. */
export function toggleKeyframe(id: string, width: number, height: number): (objects: readonly LayerObject[]) => LayerObject[] {
  return (objects) => {
    const at = objects.findIndex((o) => o.id === id);
    if (at === -1) return [...objects, { id, rle: makeRle([width * height], height, width), area: 0, keyframe: true }];
    const out = [...objects];
    const o = out[at];
    if (!o.keyframe) out[at] = { ...o, keyframe: true };
    else {
      const { keyframe: _k, ...rest } = o;
      // An entry kept only for the mark goes with it.
      if (rest.area === 0 && rest.presence === undefined && !rest.exhaustive) out.splice(at, 1);
      else out[at] = rest;
    }
    return out;
  };
}

/** Whether object `id` is a keyframe among a frame's objects. */
export function isKeyframe(objects: readonly LayerObject[] | undefined, id: string): boolean {
  return objects?.some((o) => o.id === id && o.keyframe === true) ?? false;
}

/** Object `id`'s keyframes over a clip's layers, with whether it has pixels there. */
export function keyframesOf(layers: readonly { frameIndex: number; objects?: readonly LayerObject[] }[], id: string): ObjectKeyframe[] {
  const out: ObjectKeyframe[] = [];
  for (const l of layers) {
    const o = l.objects?.find((x) => x.id === id);
    if (o?.keyframe) out.push({ frame: l.frameIndex, present: o.area > 0 });
  }
  return out.sort((a, b) => a.frame - b.frame);
}

/** Sets object `id`'s provenance on the frame (when it has pixels there); never touches a keyframe. */
export function withProvenance(id: string, provenance: Provenance): (objects: readonly LayerObject[]) => LayerObject[] {
  return (objects) => objects.map((o) => (o.id === id && o.area > 0 && !o.keyframe ? { ...o, provenance } : o));
}
