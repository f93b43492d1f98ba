/**
 * Whole-frame edits that are not pointer gestures (clear the frame, copy the previous frame's
 * masks): they change the map and return the one patch describing it, like a tool's commit, so
 * they undo, redo and persist exactly like strokes.
 */
import type { LabelMap } from '../masks/labelMap';
import { applyPatch, diffPixels, type Patch } from './patch';

/**
 * Replaces every pixel of `map` with `next` (a label, or a map-sized array such as the previous
 * frame's data) and returns the patch, shrunk to what changed; null when nothing did.
 */
export function replaceFrame(map: LabelMap, frameIndex: number, next: number | Uint8Array, action: string): Patch | null {
  const n = map.width * map.height;
  if (typeof next !== 'number' && next.length !== n) {
    throw new RangeError(`replacement has ${next.length} pixels but the ${map.width}x${map.height} frame has ${n}`);
  }
  const after = typeof next === 'number' ? new Uint8Array(n).fill(next) : next.slice();
  // Copies on both sides: a patch must never alias the live map or the caller's array.
  const patch = diffPixels({ x: 0, y: 0, w: map.width, h: map.height }, map.data.slice(), after, frameIndex, action);
  if (patch) applyPatch(map, patch, 'redo');
  return patch;
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
