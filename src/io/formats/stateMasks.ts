/**
 * Building one frame's stored masks (actionable + transformed) from the many binary masks a JSON
 * format gives (COCO: several annotations per state; VISOR: several objects and polygons), on run
 * counts only: no pixel buffer is ever allocated, so a hostile file cannot make us hold h*w bytes
 * per annotation.
 *
 * Overlap policy (both states claim a pixel): formats drawn as independent polygons or instances
 * overlap at their edges all the time, and a state change is irreversible (a region goes
 * actionable -> transformed, never back), so by default the transformed state wins and the count
 * of such pixels is reported as a warning. 'actionable' lets actionable win; 'error' refuses the
 * file (for ground truth that must not overlap).
 */
import { MaskFormatError } from '../../masks/errors';
import type { LayerMasks } from '../../masks/layers';
import { rleFromCounts } from '../../masks/rle';
import { countsOverlap, mergeCounts } from '../../masks/rleOps';

export type OverlapPolicy = 'transformed' | 'actionable' | 'error';
export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['transformed', 'actionable', 'error'];

/**
 * Exclusive-or of binary masks given as column-major run counts (each covering `n` pixels): a pixel
 * is on when an odd number of the masks cover it. This is the even-odd rule that holes drawn as
 * separate polygons need (VISOR segments, our contour export). Works on run boundaries: every
 * boundary toggles, boundaries that coincide an even number of times cancel.
 */
export function xorCounts(list: readonly ArrayLike<number>[], n: number): Uint32Array {
  let total = 0;
  for (const c of list) total += Math.max(0, c.length - 1);
  const toggles = new Float64Array(total);
  let t = 0;
  for (const c of list) {
    let pos = 0;
    for (let j = 0; j < c.length - 1; j++) {
      pos += c[j];
      toggles[t++] = pos;
    }
  }
  toggles.sort();
  const out: number[] = [];
  let prev = 0;
  for (let i = 0; i < total; ) {
    const p = toggles[i];
    let k = 0;
    while (i < total && toggles[i] === p) {
      i++;
      k++;
    }
    if (k % 2 === 0 || p >= n) continue; // cancelled, or a boundary at the very end (no pixel after it)
    out.push(p - prev);
    prev = p;
  }
  out.push(n - prev);
  return Uint32Array.from(out);
}

/**
 * Union of masks of `n` pixels; an empty list is the empty mask. Merged pairwise in a balanced tree:
 * folding left would cost O(k * runs) for k instances (a file with 100 000 tiny polygons on one
 * image would crawl); the tree costs O(runs * log k).
 */
export function unionCounts(list: readonly ArrayLike<number>[], n: number): Uint32Array {
  if (list.length === 0) return Uint32Array.of(n);
  let level: ArrayLike<number>[] = [...list];
  while (level.length > 1) {
    const next: ArrayLike<number>[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? mergeCounts([level[i], level[i + 1]]) : level[i]);
    level = next;
  }
  return Uint32Array.from(level[0]);
}

export interface ResolvedLayer {
  layer: LayerMasks;
  /** Pixels both states claimed before the policy was applied. */
  overlap: number;
}

/**
 * One frame's layer from the union counts of each state. Throws MaskFormatError under the 'error'
 * policy when they overlap; otherwise removes the shared pixels from the losing state.
 */
export function resolveStates(act: Uint32Array, trf: Uint32Array, h: number, w: number, policy: OverlapPolicy): ResolvedLayer {
  const n = h * w;
  const overlap = countsOverlap(act, trf).intersection;
  if (overlap > 0) {
    if (policy === 'error') {
      throw new MaskFormatError(`has ${overlap} pixels in both states (actionable and transformed); choose which state wins with the overlap option`);
    }
    const shared = mergeCounts([act, trf], true);
    // The shared pixels are a subset of both masks, so XOR with them removes them.
    if (policy === 'transformed') act = xorCounts([act, shared], n);
    else trf = xorCounts([trf, shared], n);
  }
  return { layer: { act: rleFromCounts(act, h, w), trf: rleFromCounts(trf, h, w) }, overlap };
}
