import { Dexie } from 'dexie';
import type { SpocDb } from './db';
import { LAYER_AREA_INDEX } from './schema';
import type { LayerSource } from './types';

/*
 * Range queries over compound keys, in one place. Writing the bounds out (instead of relying on
 * Dexie's virtual prefix indexes) keeps every query on a real index and ordered by its key.
 */

/** Frames of a clip, ordered by index. */
export function clipFrames(db: SpocDb, clipId: string) {
  return db.frames.where('[clipId+index]').between([clipId, Dexie.minKey], [clipId, Dexie.maxKey]);
}

export function clipFrameImages(db: SpocDb, clipId: string) {
  return db.frameImages.where('[clipId+index]').between([clipId, Dexie.minKey], [clipId, Dexie.maxKey]);
}

/** Every layer of a clip (all sources), ordered by source then frame. */
export function clipLayers(db: SpocDb, clipId: string) {
  return db.layers
    .where('[clipId+source+frameIndex]')
    .between([clipId, Dexie.minKey, Dexie.minKey], [clipId, Dexie.maxKey, Dexie.maxKey]);
}

/** Layers of one source of a clip, ordered by frame. */
export function sourceLayers(db: SpocDb, clipId: string, source: LayerSource) {
  return db.layers
    .where('[clipId+source+frameIndex]')
    .between([clipId, source, Dexie.minKey], [clipId, source, Dexie.maxKey]);
}

/** All sources' layers of one frame. */
export function frameLayers(db: SpocDb, clipId: string, frameIndex: number) {
  return db.layers.where('[clipId+frameIndex]').equals([clipId, frameIndex]);
}

/** The area index over one source of a clip; read with `.keys()` to get areas without loading rows. */
export function sourceAreaKeys(db: SpocDb, clipId: string, source: LayerSource) {
  const lo = [clipId, source, Dexie.minKey, Dexie.minKey, Dexie.minKey];
  const hi = [clipId, source, Dexie.maxKey, Dexie.maxKey, Dexie.maxKey];
  return db.layers.where(LAYER_AREA_INDEX).between(lo, hi);
}

/** Revisions of a clip (all sources and frames). Order by `seq` where order matters. */
export function clipRevisions(db: SpocDb, clipId: string) {
  return db.revisions
    .where('[clipId+source+frameIndex]')
    .between([clipId, Dexie.minKey, Dexie.minKey], [clipId, Dexie.maxKey, Dexie.maxKey]);
}

/** Flag dismissals of a clip (all sources), ordered by source then flag id. */
export function clipFlagDismissals(db: SpocDb, clipId: string) {
  return db.reviewFlags
    .where('[clipId+source+flagId]')
    .between([clipId, Dexie.minKey, Dexie.minKey], [clipId, Dexie.maxKey, Dexie.maxKey]);
}

/** Flag dismissals of one source of a clip. */
export function sourceFlagDismissals(db: SpocDb, clipId: string, source: LayerSource) {
  return db.reviewFlags
    .where('[clipId+source+flagId]')
    .between([clipId, source, Dexie.minKey], [clipId, source, Dexie.maxKey]);
}

/** Lifecycle events of a clip, ordered by `seq` (oldest first). */
export function clipEventRows(db: SpocDb, clipId: string) {
  return db.clipEvents.where('[clipId+seq]').between([clipId, Dexie.minKey], [clipId, Dexie.maxKey]);
}

/** Comments of a clip, ordered by frame. */
export function clipCommentRows(db: SpocDb, clipId: string) {
  return db.comments.where('[clipId+frameIndex]').between([clipId, Dexie.minKey], [clipId, Dexie.maxKey]);
}

/** Objects of a clip (schema v9), in no particular order. */
export function clipObjectRows(db: SpocDb, clipId: string) {
  return db.objects.where('clipId').equals(clipId);
}

/** Frame verdicts of a clip, ordered by frame then `seq` (each frame's history oldest first). */
export function clipVerdictRows(db: SpocDb, clipId: string) {
  return db.frameVerdicts
    .where('[clipId+frameIndex+seq]')
    .between([clipId, Dexie.minKey, Dexie.minKey], [clipId, Dexie.maxKey, Dexie.maxKey]);
}
