/**
 * A deliberately simple masklet tracker for pre-labelling: proposals of consecutive processed
 * frames are linked greedily by mask IoU.
 *
 * For each pair of consecutive frames (in processing order, whatever their indices), every
 * (previous, current) proposal pair with mask IoU >= `iouThreshold` (default 0.5) is a candidate
 * link; links are taken best IoU first (ties: lower previous index, then lower current index), each
 * proposal at most once on either side. A current proposal without a link starts a new track; a
 * track whose proposal found no successor ends (tracks never bridge a missed frame). So a track
 * holds at most one proposal per frame, which is what applyDynamics needs.
 *
 * 0.5 is the usual "same object" IoU; nested SAM masks of one object at different granularities
 * (IoU typically 0.3-0.6) can compete, but the identical-granularity pair (IoU near 1) wins first.
 */
import { boxIou, maskIou, type CroppedMask } from '../spoc/croppedMask';

export const DEFAULT_TRACK_IOU = 0.5;

/**
 * Track ids for every proposal of every frame: `ids[f][k]` is the track of proposal k of the f-th
 * frame given. Ids are 0, 1, 2, ... in order of first appearance.
 */
export function linkTracks(frames: readonly (readonly CroppedMask[])[], iouThreshold = DEFAULT_TRACK_IOU): number[][] {
  if (!(iouThreshold > 0 && iouThreshold <= 1)) throw new RangeError(`track IoU threshold must be in (0, 1], got ${iouThreshold}`);
  let next = 0;
  const ids: number[][] = [];
  for (let f = 0; f < frames.length; f++) {
    const cur = frames[f];
    const out = new Array<number>(cur.length).fill(-1);
    if (f > 0) {
      const prev = frames[f - 1];
      const pairs: { p: number; c: number; iou: number }[] = [];
      for (let p = 0; p < prev.length; p++) {
        for (let c = 0; c < cur.length; c++) {
          if (boxIou(prev[p].box, cur[c].box) === 0) continue;
          const iou = maskIou(prev[p], cur[c]);
          if (iou >= iouThreshold) pairs.push({ p, c, iou });
        }
      }
      pairs.sort((a, b) => b.iou - a.iou || a.p - b.p || a.c - b.c);
      const usedPrev = new Set<number>();
      for (const { p, c } of pairs) {
        if (usedPrev.has(p) || out[c] >= 0) continue;
        usedPrev.add(p);
        out[c] = ids[f - 1][p];
      }
    }
    for (let c = 0; c < cur.length; c++) if (out[c] < 0) out[c] = next++;
    ids.push(out);
  }
  return ids;
}
