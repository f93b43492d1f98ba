/**
 * How the editor's in-memory label map meets the stored rows (docs/objects.md "In the editor"):
 * a frame's layer → the map the tools paint, the map → the layer's pixel fields, and a patch ↔ its
 * revision. Two codecs, chosen by the project's kind:
 *
 * - **states** (SPOC projects): the map holds 0, 1 actionable, 2 transformed; exactly the
 *   encoding the editor always had (masks/layers.ts, revisionPatch.ts).
 * - **objects** (objects projects): the map holds object slots, 1..254, one per object of the clip
 *   in this session (masks/ownerMap.ts ObjectSlots), 0 for nothing and 255 for a pixel that is
 *   annotated but owned by no object (a mask imported before the clip had objects). Every tool then
 *   paints objects unchanged: painting "class" k writes slot k, the protect rule keeps other
 *   objects' pixels, a flood fill fills one object's region, undo restores owners. Stored, `act`
 *   is every annotated pixel, `trf` is empty and `objects` holds each object's pixels, so areas,
 *   progress and exports keep reading the layer as before.
 */
import type { LabelMap } from '../masks/labelMap';
import { createLabelMap } from '../masks/labelMap';
import { decodeLayer, encodeLayer, parseLayer } from '../masks/layers';
import { masksFromOwnerMap, ownerMapFromMasks, paintObjectMasks, ObjectSlots } from '../masks/ownerMap';
import { encodeCountsWhere, makeRle, NONZERO, rleCounts, decodeCounts, parseCocoRle } from '../masks/rle';
import { MaskFormatError } from '../masks/errors';
import type { Layer, LayerObject, Rle, RevisionObject } from '../store/types';
import type { Patch } from './patch';
import { schemaOf, type LabelSchema } from '../objects/labelSchema';
import { patchToRevision, revisionToPatch, type RevisionPixels } from './revisionPatch';

/** The pixel fields of a layer a codec writes. */
export interface LayerPixels {
  act: Rle;
  trf: Rle;
  objects?: LayerObject[];
}

export interface PixelCodec {
  readonly kind: 'states' | 'objects';
  /** Objects codec: the session's object ids ↔ map values. */
  readonly slots?: ObjectSlots;
  /** The map the tools paint, from the frame's stored layer (or empty without one). */
  mapOf(layer: Pick<Layer, 'act' | 'trf' | 'objects'> | undefined, width: number, height: number): LabelMap;
  /** The layer's pixel fields for `map`; `previous` objects lend their per-frame facts (keyframe, presence, ...). */
  layerOf(map: LabelMap, previous?: readonly LayerObject[]): LayerPixels;
  toRevision(patch: Patch): RevisionPixels;
  toPatch(rev: RevisionPixels): Patch;
}

export const STATE_CODEC: PixelCodec = {
  kind: 'states',
  mapOf: (layer, width, height) => (layer ? decodeLayer(parseLayer({ act: layer.act, trf: layer.trf }), { width, height }) : createLabelMap(width, height)),
  layerOf: (map, previous) => ({ ...encodeLayer(map), ...(previous && previous.length > 0 ? { objects: objectsWithinStates(map, previous) } : {}) }),
  toRevision: patchToRevision,
  toPatch: revisionToPatch,
};

/** The map value of an annotated pixel no object owns. */
export const UNASSIGNED = 255;
/** Slots an objects map can hold: 1..254. */
export const MAX_EDITOR_OBJECTS = 254;

/** The objects codec of one editor session: `slots` maps the clip's object ids to map values. */
export function objectCodec(slots: ObjectSlots = new ObjectSlots(MAX_EDITOR_OBJECTS)): PixelCodec & { readonly slots: ObjectSlots } {
  if (slots.max > MAX_EDITOR_OBJECTS) throw new RangeError(`an objects map holds at most ${MAX_EDITOR_OBJECTS} objects`);
  return {
    kind: 'objects',
    slots,
    mapOf(layer, width, height) {
      const map = createLabelMap(width, height);
      if (!layer) return map;
      const states = decodeLayer(parseLayer({ act: layer.act, trf: layer.trf }), { width, height });
      for (let i = 0; i < map.data.length; i++) if (states.data[i] !== 0) map.data[i] = UNASSIGNED;
      paintObjectMasks(map, layer.objects ?? [], slots, UNASSIGNED);
      return map;
    },
    layerOf(map, previous = []) {
      const { width: w, height: h, data } = map;
      const masks = masksFromOwnerMap(map, slots, UNASSIGNED);
      const before = new Map(previous.map((o) => [o.id, o]));
      const objects: LayerObject[] = masks.map((m) => withFacts({ id: m.id, rle: m.rle, area: m.area }, before.get(m.id)));
      const present = new Set(objects.map((o) => o.id));
      // An object without pixels here stays listed only for a fact someone set (occluded, a keyframe, ...).
      for (const o of previous) {
        if (present.has(o.id) || (o.presence === undefined && !o.keyframe && !o.exhaustive)) continue;
        const { provenance: _p, ...facts } = o;
        objects.push({ ...facts, rle: makeRle([w * h], h, w), area: 0, ...(o.presence === 'visible' ? { presence: 'visible' as const } : {}) });
      }
      return { act: makeRle(encodeCountsWhere(data, h, w, NONZERO), h, w), trf: makeRle([w * h], h, w), objects };
    },
    toRevision(patch) {
      const { box } = patch;
      const side = (pixels: Uint8Array): RevisionObject[] => masksFromOwnerMap({ width: box.w, height: box.h, data: pixels }, slots, UNASSIGNED).map(({ id, rle }) => ({ id, rle }));
      return {
        frameIndex: patch.frameIndex,
        box: { ...box },
        action: patch.action,
        before: makeRle(encodeCountsWhere(patch.before, box.h, box.w, NONZERO), box.h, box.w),
        after: makeRle(encodeCountsWhere(patch.after, box.h, box.w, NONZERO), box.h, box.w),
        objectsBefore: side(patch.before),
        objectsAfter: side(patch.after),
      };
    },
    toPatch(rev) {
      const { box } = rev;
      const side = (footprint: Rle, objects: readonly RevisionObject[] | undefined, name: string): Uint8Array => {
        const fp = parseCocoRle(footprint);
        if (fp.size[0] !== box.h || fp.size[1] !== box.w) throw new MaskFormatError(`revision ${name} is ${fp.size[1]}x${fp.size[0]}, not the box's ${box.w}x${box.h}`);
        const pixels = decodeCounts(rleCounts(fp), box.h, box.w, UNASSIGNED);
        paintObjectMasks({ width: box.w, height: box.h, data: pixels }, objects ?? [], slots, UNASSIGNED);
        return pixels;
      };
      return { frameIndex: rev.frameIndex, box: { ...box }, action: rev.action, before: side(rev.before, rev.objectsBefore, 'before'), after: side(rev.after, rev.objectsAfter, 'after') };
    },
  };
}

/**
 * A SPOC layer's objects after a state edit: each keeps only its pixels that are still annotated (an
 * owned pixel must be actionable or transformed), with its facts. The SPOC editor does not paint
 * objects yet (docs/objects.md "What comes next"), but a layer that has them (a bundle's) keeps them.
 */
function objectsWithinStates(map: LabelMap, previous: readonly LayerObject[]): LayerObject[] {
  const slots = new ObjectSlots();
  const owners = ownerMapFromMasks(map.width, map.height, previous, slots);
  for (let i = 0; i < owners.data.length; i++) if (map.data[i] === 0) owners.data[i] = 0;
  const byId = new Map(masksFromOwnerMap(owners, slots).map((m) => [m.id, m]));
  return previous.map((o) => {
    const m = byId.get(o.id);
    const kept: LayerObject = m ? { ...o, rle: m.rle, area: m.area } : { ...o, rle: makeRle([map.width * map.height], map.height, map.width), area: 0 };
    if (kept.area === 0 && kept.presence === 'visible') delete kept.presence;
    if (kept.rle.counts !== o.rle.counts) delete kept.provenance;
    return kept;
  });
}

/** The codec a clip of `project` is edited with: objects for an objects project, states otherwise. */
export function codecFor(project: { labels?: LabelSchema } | undefined): PixelCodec {
  return schemaOf(project ?? {}).kind === 'objects' ? objectCodec() : STATE_CODEC;
}

/** Keeps the frame's facts about an object across an edit; its provenance only if its pixels did not change. */
function withFacts(o: LayerObject, previous: LayerObject | undefined): LayerObject {
  if (!previous) return o;
  const out: LayerObject = { ...o };
  if (previous.keyframe) out.keyframe = true;
  if (previous.exhaustive) out.exhaustive = true;
  // Pixels make an object visible (or partly occluded): an "absent" or "out of view" mark no longer holds.
  if (previous.presence === 'visible' || previous.presence === 'occluded') out.presence = previous.presence;
  if (previous.provenance && previous.rle.counts === o.rle.counts) out.provenance = previous.provenance;
  return out;
}
