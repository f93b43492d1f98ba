/**
 * A patch is one undoable change to one frame's label map: the changed box and its pixels before
 * and after. Undo, redo, revisions and reviewer diffs are all built from it, so the box is kept
 * tight (only the pixels that really changed) to keep history memory and stored revisions small.
 */
import type { Box, LabelMap } from '../masks/labelMap';
import { clampBox } from '../masks/geometry';
import { extractBox, pasteBox } from '../masks/patches';
import type { LayerRelation } from '../store/types';

/**
 * The frame's relations before and after a step (docs/objects.md "Relations in the editor"): set
 * for a contact answer, and for a pixel edit that dropped a relation whose end lost its place.
 * Whole lists: applying a side replaces the frame's relations.
 */
export interface RelationsChange {
  before: LayerRelation[];
  after: LayerRelation[];
}

export interface Patch {
  /** The frame the patch belongs to: history is per frame and every entry says which. */
  frameIndex: number;
  /** Integer box inside the map; before/after are its pixels, row-major, length w * h. */
  box: Box;
  before: Uint8Array;
  after: Uint8Array;
  /** What made the change ("brush", "polygon", "undo:brush", ...); stored as Revision.action. */
  action: string;
  /** The step also changed the frame's relations; absent: they stayed. */
  relations?: RelationsChange;
}

export type PatchDirection = 'redo' | 'undo';

/** Writes the patch's after (redo) or before (undo) pixels into `map`, in place. */
export function applyPatch(map: LabelMap, patch: Patch, direction: PatchDirection): void {
  pasteBox(map, patch.box, direction === 'redo' ? patch.after : patch.before);
}

/**
 * Whether `map` currently holds the pixels that applying the patch in `direction` replaces
 * (before for redo, after for undo). History checks it so that a stale entry can never scribble
 * over pixels it does not describe.
 */
export function patchFits(map: LabelMap, patch: Patch, direction: PatchDirection): boolean {
  const expected = direction === 'redo' ? patch.before : patch.after;
  const { x, y, w, h } = patch.box;
  if (x < 0 || y < 0 || x + w > map.width || y + h > map.height) return false;
  for (let r = 0; r < h; r++) {
    const row = (y + r) * map.width + x;
    for (let c = 0; c < w; c++) if (map.data[row + c] !== expected[r * w + c]) return false;
  }
  return true;
}

/** Memory held by a patch's pixels (the box and action are negligible next to them). */
export function patchBytes(patch: Patch): number {
  return patch.before.byteLength + patch.after.byteLength;
}

/**
 * The same change seen from the other side: applying it forward undoes `patch`. Used to record an
 * undo as a new revision, so the stored log stays append-only.
 */
export function invertPatch(patch: Patch, action: string): Patch {
  const inverted: Patch = { frameIndex: patch.frameIndex, box: { ...patch.box }, before: patch.after, after: patch.before, action };
  if (patch.relations) inverted.relations = { before: patch.relations.after, after: patch.relations.before };
  return inverted;
}

/**
 * The patch turning `before` into `after` within `box`, with the box shrunk to the changed pixels;
 * null when nothing changed. Both maps must have the same size; the box is clipped to them.
 */
export function diffToPatch(
  before: LabelMap,
  after: LabelMap,
  box: Box,
  frameIndex = 0,
  action = 'edit',
): Patch | null {
  if (before.width !== after.width || before.height !== after.height) {
    throw new RangeError(`maps differ in size: ${before.width}x${before.height} vs ${after.width}x${after.height}`);
  }
  const clipped = clampBox(box, after.width, after.height);
  if (clipped.w === 0 || clipped.h === 0) return null;
  return diffPixels(clipped, extractBox(before, clipped), extractBox(after, clipped), frameIndex, action);
}

/**
 * Like diffToPatch, for box-sized pixel arrays already extracted (what a gesture's backup holds).
 * Returns a patch whose box is the tight bounding box of the pixels that differ, or null.
 */
export function diffPixels(
  box: Box,
  before: Uint8Array,
  after: Uint8Array,
  frameIndex: number,
  action: string,
): Patch | null {
  const { w, h } = box;
  if (before.length !== w * h || after.length !== w * h) {
    throw new RangeError(`pixel arrays must have ${w * h} entries for a ${w}x${h} box`);
  }
  let y0 = -1;
  let y1 = -1;
  let x0 = w;
  let x1 = -1;
  for (let r = 0; r < h; r++) {
    const row = r * w;
    let first = -1;
    let last = -1;
    for (let c = 0; c < w; c++) {
      if (before[row + c] !== after[row + c]) {
        if (first < 0) first = c;
        last = c;
      }
    }
    if (first < 0) continue;
    if (y0 < 0) y0 = r;
    y1 = r;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
  }
  if (y0 < 0) return null;
  const tight = { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  const sub = (pixels: Uint8Array): Uint8Array => {
    // The whole box changed: keep the arrays as they are instead of copying.
    if (tight.w === w && tight.h === h) return pixels;
    return extractBox({ width: w, height: h, data: pixels }, tight);
  };
  return {
    frameIndex,
    box: { x: box.x + tight.x, y: box.y + tight.y, w: tight.w, h: tight.h },
    before: sub(before),
    after: sub(after),
    action,
  };
}
