/**
 * Whole-frame edits that are not pointer gestures (clear the frame, copy the previous frame's
 * masks): they change the map and return the one patch describing it, like a tool's commit, so
 * they undo, redo and persist exactly like strokes.
 */
import type { LabelMap } from '../masks/labelMap';
import { applyPatch, diffPixels, type Patch } from './patch';

/**
 * Turns a whole-frame result into the patch that makes it, and applies it to `map`. `next` is the
 * frame's new labels and is taken over (never copy it in; never keep it after). Only the changed
 * box is copied out of the map, so a result that changes a small region costs two small copies and
 * even a result that changes every pixel costs one frame copy (the map's pixels before). Null when
 * nothing changed.
 */
export function labelsPatch(map: LabelMap, next: Uint8Array, frameIndex: number, action: string): Patch | null {
  const n = map.width * map.height;
  if (next.length !== n) throw new RangeError(`replacement has ${next.length} pixels but the ${map.width}x${map.height} frame has ${n}`);
  if (next === map.data) throw new Error('a frame edit must return new labels, not the map it was given');
  const found = diffPixels({ x: 0, y: 0, w: map.width, h: map.height }, map.data, next, frameIndex, action);
  if (!found) return null;
  // diffPixels hands back its inputs when every row and column changed: the map's pixels are about to change.
  const patch = found.before === map.data ? { ...found, before: map.data.slice() } : found;
  applyPatch(map, patch, 'redo');
  return patch;
}

/**
 * Replaces every pixel of `map` with `next` (a label, or a map-sized array such as the previous
 * frame's data) and returns the patch, shrunk to what changed; null when nothing did.
 */
export function replaceFrame(map: LabelMap, frameIndex: number, next: number | Uint8Array, action: string): Patch | null {
  const n = map.width * map.height;
  if (typeof next !== 'number' && next.length !== n) {
    throw new RangeError(`replacement has ${next.length} pixels but the ${map.width}x${map.height} frame has ${n}`);
  }
  // The caller keeps its array: the patch must never alias it.
  return labelsPatch(map, typeof next === 'number' ? new Uint8Array(n).fill(next) : next.slice(), frameIndex, action);
}

/** Sets the whole frame to background. */
export function clearFrame(map: LabelMap, frameIndex: number): Patch | null {
  return replaceFrame(map, frameIndex, 0, 'clear');
}

/** Copies another frame's labels (the previous frame, for the 'c' action) into this one. */
export function copyFrame(map: LabelMap, frameIndex: number, source: LabelMap): Patch | null {
  if (source.width !== map.width || source.height !== map.height) {
    throw new RangeError(`cannot copy a ${source.width}x${source.height} frame into a ${map.width}x${map.height} one`);
  }
  return replaceFrame(map, frameIndex, source.data, 'copy-frame');
}
