/**
 * A frame's label map as the replay of its revisions (docs/sync.md "The protocol"): start from an
 * empty map and, for each revision in the order given, set the pixels of its box whose label
 * differs between `before` and `after` to the `after` label. Pixels a revision did not change are
 * left alone, even inside its box.
 *
 * Why only the changed pixels, and not the whole `after` box: with one writer it makes no
 * difference (each revision's `before` is exactly what the map held there, so the box ends as
 * `after` either way, and the stored layer equals the replay), but with two people painting the
 * same frame without seeing each other, pasting whole boxes would let the later revision's stale
 * `before` pixels wipe the earlier one's stroke where their boxes overlap. Applying changes only
 * keeps both strokes; where both changed the same pixel, the later one in the order wins.
 *
 * The order is the caller's (sync/replayOrder.ts: server cursor, then local-only rows by seq).
 */
import { MaskFormatError } from './errors';
import { createLabelMap, type Box, type LabelMap } from './labelMap';
import { checkRevisionBox, decodeRevisionSide, type StoredRle } from './revisionPixels';

/** The pixel part of a stored revision (store `Revision` rows fit). */
export interface ReplayableRevision {
  box: Box;
  before: StoredRle;
  after: StoredRle;
  beforeTrf?: StoredRle;
  afterTrf?: StoredRle;
}

/** Applies one revision's changed pixels to `map`, in place. */
export function applyRevisionChanges(map: LabelMap, rev: ReplayableRevision): void {
  const { box } = rev;
  checkRevisionBox(box);
  if (box.x + box.w > map.width || box.y + box.h > map.height) {
    throw new MaskFormatError(`revision box {x: ${box.x}, y: ${box.y}, w: ${box.w}, h: ${box.h}} is not inside the ${map.width}x${map.height} frame`);
  }
  const before = decodeRevisionSide(rev.before, rev.beforeTrf, box, 'before');
  const after = decodeRevisionSide(rev.after, rev.afterTrf, box, 'after');
  const { data, width } = map;
  for (let r = 0; r < box.h; r++) {
    const row = (box.y + r) * width + box.x;
    const src = r * box.w;
    for (let c = 0; c < box.w; c++) {
      const a = after[src + c];
      if (a !== before[src + c]) data[row + c] = a;
    }
  }
}

/** The label map of a `width` x `height` frame after `revisions`, in the order given, from empty. */
export function replayRevisionLabels(width: number, height: number, revisions: Iterable<ReplayableRevision>): LabelMap {
  const map = createLabelMap(width, height);
  for (const rev of revisions) applyRevisionChanges(map, rev);
  return map;
}
