import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelMap } from '../masks/labelMap';
import { encodeLayer } from '../masks/layers';
import { diffToPatch } from '../annotator/patch';
import { patchToRevision } from '../annotator/revisionPatch';
import type { SpocDb } from '../store/db';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { saveLayerEdit } from '../store/layers';
import { freshDb, importDraft } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { loadFrameReviewDiff } from './annotatorVersionLoader';
import { takeClipStep } from './reviewSteps';
import { rects } from '../testing/review';

let db: SpocDb;
let clip: Clip;
let map: LabelMap;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 3));
  map = rects(clip.width, clip.height, 0);
});
afterEach(() => db.close());

/** An editor edit of frame 1 as the annotator page writes it: the layer and its revision together. */
async function paint(next: LabelMap, author: string, at: number) {
  const patch = diffToPatch(map, next, { x: 0, y: 0, w: map.width, h: map.height }, 1, 'brush')!;
  await saveLayerEdit(db, {
    layer: { clipId: clip.id, frameIndex: 1, source: 'gt', ...encodeLayer(next), provenance: { kind: 'manual', by: author, at } },
    revision: { ...patchToRevision(patch), clipId: clip.id, source: 'gt', author, at },
  });
  map = next;
}

describe('loadFrameReviewDiff', () => {
  it('is null before the first submission', async () => {
    await paint(rects(clip.width, clip.height, 0, [1, 0, 0, 3, 3]), 'ann', 1);
    expect(await loadFrameReviewDiff(db, clip, 1)).toBeNull();
  });

  it("reads the annotator's version and the reviewer's diff from the store", async () => {
    const handedIn = rects(clip.width, clip.height, 0, [1, 0, 0, 4, 3], [2, 4, 0, 2, 3]);
    await paint(handedIn, 'ann', Date.now() - 10_000);
    await takeClipStep(db, clip.id, 'submit', 'ann', undefined, Date.now() - 5_000);
    await takeClipStep(db, clip.id, 'start_review', 'rev');
    const corrected = rects(clip.width, clip.height, 0, [1, 0, 0, 4, 3], [2, 3, 0, 3, 3], [1, 0, 4, 2, 2]);
    await paint(corrected, 'rev', Date.now());
    const r = (await loadFrameReviewDiff(db, clip, 1))!;
    expect(r.baseline.annotator).toBe('ann');
    expect(Array.from(r.annotator.data)).toEqual(Array.from(handedIn.data));
    expect(Array.from(r.current.data)).toEqual(Array.from(corrected.data));
    expect(r.reviewers).toEqual(['rev']);
    // Column 3 (3 px) went actionable -> transformed; a 2x2 actionable block was added.
    expect([r.diff.act.added, r.diff.act.removed, r.diff.trf.added, r.diff.trf.removed]).toEqual([4, 3, 3, 0]);
    // Another frame without any layer: empty, unchanged.
    const other = (await loadFrameReviewDiff(db, clip, 0))!;
    expect(other.diff.changed).toBe(0);
    expect(other.undone).toBe(0);
  });
});
