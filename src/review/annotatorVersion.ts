/**
 * The annotator's version of a frame: the gt masks as they were handed in, before the reviewer
 * corrected them in place. Pure (maps, events and revision rows in, a map out).
 *
 * Definition (docs/review.md, "Annotator's version"):
 * - the submission under review is the clip's **last `submit` event**; its `by` is the annotator
 *   and its `at` the time of handing in. A clip never submitted has no annotator's version;
 * - a **reviewer revision** is a gt revision of the frame written at or after that time by anyone
 *   other than the annotator;
 * - the annotator's version is the frame's current gt with **every revision from the first
 *   reviewer revision on** (by seq: the reviewer's, and anything written after it) undone, newest
 *   first, each by writing back the pixels it recorded as `before`. Without a reviewer revision it
 *   is the current gt (the reviewer changed nothing).
 * Revisions record the pixels they really replaced, so the undo is exact as long as the stored
 * layer is the replay of its log — true for every edit made in the editor (undo and redo are
 * revisions too). A layer replaced wholesale (an import over it) is not in the log.
 */
import type { LabelMap } from '../masks/labelMap';
import { revisionToPatch } from '../annotator/revisionPatch';
import type { ClipEvent, Revision } from '../store/types';

export interface ReviewBaseline {
  /** Who handed the clip in (the last submit's `by`). */
  annotator: string;
  /** When (the last submit's `at`). */
  submittedAt: number;
}

/** The submission under review, or null when the clip was never submitted. */
export function reviewBaseline(events: readonly ClipEvent[]): ReviewBaseline | null {
  let last: ClipEvent | null = null;
  for (const e of events) if (e.action === 'submit' && (!last || e.seq > last.seq)) last = e;
  return last ? { annotator: last.by, submittedAt: last.at } : null;
}

export interface AnnotatorVersion {
  map: LabelMap;
  /** The revisions undone to get there, oldest first (empty: the reviewer changed nothing). */
  undone: Revision[];
  /** Everyone but the annotator among the authors of the undone revisions. */
  reviewers: string[];
}

/** Whether a revision is a reviewer's correction of the submission `baseline`. */
export function isReviewerRevision(rev: Pick<Revision, 'author' | 'at' | 'source'>, baseline: ReviewBaseline): boolean {
  return rev.source === 'gt' && rev.at >= baseline.submittedAt && rev.author !== baseline.annotator;
}

/**
 * Reconstructs the annotator's version of one frame from its current gt map and its gt revisions
 * (any order; other frames' and sources' rows are ignored).
 */
export function annotatorVersion(current: LabelMap, revisions: readonly Revision[], frameIndex: number, baseline: ReviewBaseline): AnnotatorVersion {
  const log = revisions.filter((r) => r.source === 'gt' && r.frameIndex === frameIndex).sort((a, b) => a.seq - b.seq);
  const first = log.findIndex((r) => isReviewerRevision(r, baseline));
  const map: LabelMap = { width: current.width, height: current.height, data: current.data.slice() };
  if (first < 0) return { map, undone: [], reviewers: [] };
  const undone = log.slice(first);
  for (let k = undone.length - 1; k >= 0; k--) {
    const patch = revisionToPatch(undone[k]);
    const { x, y, w, h } = patch.box;
    if (x + w > map.width || y + h > map.height) {
      throw new RangeError(`revision ${undone[k].seq} (box ${x},${y} ${w}x${h}) reaches outside the ${map.width}x${map.height} frame`);
    }
    for (let row = 0; row < h; row++) map.data.set(patch.before.subarray(row * w, row * w + w), (y + row) * map.width + x);
  }
  const reviewers = [...new Set(undone.map((r) => r.author).filter((a) => a !== baseline.annotator))];
  return { map, undone, reviewers };
}
