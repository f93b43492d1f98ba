/**
 * Which object owns each pixel of a frame (docs/objects.md "Pixels and objects"): the second channel
 * beside the label map. The label map keeps the state (actionable, transformed) the metrics read;
 * the owner map says whose pixel it is. A pixel has at most one owner, so masks of different
 * objects never overlap by construction.
 *
 * Stored, each object's pixels are one COCO RLE (what every format and pycocotools read); in
 * memory the frame is one Uint16 per pixel holding a slot number, 0 for "no object". Slots are
 * local to a session (ObjectSlots): object ids (UUIDs) are what is stored and synced.
 */
import { MaskFormatError } from './errors';
import type { Box } from './labelMap';
import { canonicalCounts, makeRle, rleCounts, type CocoRle } from './rle';

export interface OwnerMap {
  readonly width: number;
  readonly height: number;
  /**
   * Row-major, index = y * width + x; 0 = no object, k = the object in slot k. Uint8 where a
   * session holds at most 254 objects and paints with the label-map tools (annotator/pixelCodec.ts).
   */
  readonly data: Uint16Array | Uint8Array;
}

/**
 * One object's pixels, as stored: a COCO RLE of size [height, width] (a frame, or a revision's box).
 * Read as stored rows give it (its runs are checked against the size when decoded).
 */
export interface ObjectMask {
  id: string;
  rle: { size: [number, number]; counts: string };
}

export interface CountedObjectMask {
  id: string;
  rle: CocoRle;
  area: number;
}

export const MAX_SLOTS = 0xffff;

/** Object ids ↔ slot numbers 1..`max` for one clip in memory; a new id gets the next slot. */
export class ObjectSlots {
  private readonly slots = new Map<string, number>();
  private readonly ids: string[] = [''];

  constructor(readonly max = MAX_SLOTS) {}

  slotOf(id: string): number {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      if (this.ids.length > this.max) throw new RangeError(`the editor holds at most ${this.max} objects per clip`);
      slot = this.ids.length;
      this.slots.set(id, slot);
      this.ids.push(id);
    }
    return slot;
  }

  /** The id in `slot`, or undefined for 0 and unknown slots. */
  idOf(slot: number): string | undefined {
    return slot === 0 ? undefined : this.ids[slot];
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }
}

export function createOwnerMap(width: number, height: number): OwnerMap {
  return { width, height, data: new Uint16Array(width * height) };
}

/**
 * The owner map of `masks` (each of size [height, width]). Throws MaskFormatError when a mask has
 * another size or two masks claim the same pixel, naming both objects.
 */
export function ownerMapFromMasks(width: number, height: number, masks: readonly ObjectMask[], slots: ObjectSlots): OwnerMap {
  const map = createOwnerMap(width, height);
  paintObjectMasks(map, masks, slots);
  return map;
}

/**
 * Writes each object's slot where its mask is on, into `map` in place. A pixel already holding
 * another object refuses (MaskFormatError); one holding `free` (a value that is no object, such as
 * the editor's "unassigned" mark) or 0 is taken.
 */
export function paintObjectMasks(map: OwnerMap, masks: readonly ObjectMask[], slots: ObjectSlots, free = 0): void {
  for (const m of masks) paintMask(map, m, slots.slotOf(m.id), slots, free);
}

function paintMask(map: OwnerMap, m: ObjectMask, slot: number, slots: ObjectSlots, free: number): void {
  const { width: w, height: h, data } = map;
  const [mh, mw] = m.rle.size;
  if (mh !== h || mw !== w) throw new MaskFormatError(`the mask of object ${m.id} is ${mw}x${mh}, not ${w}x${h}`);
  const counts = rleCounts(m.rle as CocoRle); // validates the runs against the size
  let pos = 0;
  for (let j = 0; j < counts.length; j++) {
    const end = pos + counts[j];
    if (j & 1) {
      for (let p = pos; p < end; p++) {
        const x = (p / h) | 0;
        const i = (p - x * h) * w + x;
        if (data[i] !== 0 && data[i] !== slot && data[i] !== free) {
          throw new MaskFormatError(`objects ${slots.idOf(data[i])} and ${m.id} both claim pixel (${x}, ${p - x * h}); a pixel belongs to one object`);
        }
        data[i] = slot;
      }
    }
    pos = end;
  }
}

/**
 * Every object present in `map` as a COCO RLE of the map's size, in slot order, with its pixel
 * count. One column-major pass over the map, whatever the number of objects: each change of owner
 * along the scan ends a run of one object and starts a run of another.
 */
export function masksFromOwnerMap(map: OwnerMap, slots: ObjectSlots, free = 0): CountedObjectMask[] {
  const { width: w, height: h, data } = map;
  const runs = new Map<number, { counts: number[]; end: number; start: number; area: number }>();
  let current = 0;
  let start = 0;
  const close = (slot: number, endPos: number) => {
    if (slot === 0 || slot === free) return;
    let r = runs.get(slot);
    if (!r) runs.set(slot, (r = { counts: [], end: 0, start: 0, area: 0 }));
    r.counts.push(start - r.end, endPos - start);
    r.area += endPos - start;
    r.end = endPos;
  };
  let p = 0;
  for (let x = 0; x < w; x++) {
    for (let y = 0, i = x; y < h; y++, i += w, p++) {
      const v = data[i];
      if (v !== current) {
        close(current, p);
        current = v;
        start = p;
      }
    }
  }
  close(current, p);
  const n = w * h;
  const out: CountedObjectMask[] = [];
  for (const slot of [...runs.keys()].sort((a, b) => a - b)) {
    const r = runs.get(slot)!;
    const id = slots.idOf(slot);
    if (id === undefined) throw new RangeError(`slot ${slot} has no object`);
    r.counts.push(n - r.end);
    // Only the first gap can be empty (an owner change always ends a run), and the last may be: canonical drops it as pycocotools would.
    out.push({ id, rle: makeRle(canonicalCounts(r.counts), h, w), area: r.area });
  }
  return out;
}

/** The owner map's pixels inside `box` as a map of the box's size. */
export function ownerBox(map: OwnerMap, box: Box): OwnerMap {
  const out = createOwnerMap(box.w, box.h);
  for (let r = 0; r < box.h; r++) {
    const from = (box.y + r) * map.width + box.x;
    out.data.set(map.data.subarray(from, from + box.w), r * box.w);
  }
  return out;
}

/**
 * Applies a revision's owner change to `map`, in place (the owner half of masks/replayRevisions.ts):
 * inside `box`, each pixel whose owner differs between `before` and `after` takes the `after`
 * owner; pixels the revision did not change keep theirs, so two people's concurrent strokes both
 * survive, the later one winning where both changed the same pixel.
 */
export function applyOwnerChanges(map: OwnerMap, box: Box, before: readonly ObjectMask[], after: readonly ObjectMask[], slots: ObjectSlots): void {
  if (box.x < 0 || box.y < 0 || box.x + box.w > map.width || box.y + box.h > map.height) {
    throw new MaskFormatError(`revision box {x: ${box.x}, y: ${box.y}, w: ${box.w}, h: ${box.h}} is not inside the ${map.width}x${map.height} frame`);
  }
  const b = ownerMapFromMasks(box.w, box.h, before, slots).data;
  const a = ownerMapFromMasks(box.w, box.h, after, slots).data;
  for (let r = 0; r < box.h; r++) {
    const row = (box.y + r) * map.width + box.x;
    for (let c = 0, k = r * box.w; c < box.w; c++, k++) if (a[k] !== b[k]) map.data[row + c] = a[k];
  }
}
