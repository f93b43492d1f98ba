/** Store bridge of annotatorVersion.ts: one frame's annotator's version and the reviewer's diff. */
import { decodeLayer, parseLayer } from '../masks/layers';
import type { LabelMap } from '../masks/labelMap';
import type { SpocDb } from '../store/db';
import { listClipEvents } from '../store/clipEvents';
import { getLayer } from '../store/layers';
import { listRevisions } from '../store/revisions';
import type { Clip } from '../store/types';
import { annotatorVersion, reviewBaseline, type ReviewBaseline } from './annotatorVersion';
import { diffMaps, type MapDiff } from './errorMap';

export interface FrameReviewDiff {
  frameIndex: number;
  baseline: ReviewBaseline;
  /** The frame's gt as handed in. */
  annotator: LabelMap;
  /** The frame's gt as stored now. */
  current: LabelMap;
  /** annotator -> current: what the reviewer added and removed, per state. */
  diff: MapDiff;
  reviewers: string[];
  /** Revisions undone to reconstruct the annotator's version. */
  undone: number;
}

/**
 * Reads the clip's history, the frame's stored gt and its revisions (all in one read transaction,
 * so they agree) and reconstructs the annotator's version; null when the clip was never submitted.
 */
export async function loadFrameReviewDiff(db: SpocDb, clip: Clip, frameIndex: number): Promise<FrameReviewDiff | null> {
  const [events, layer, revisions] = await db.transaction('r', [db.clipEvents, db.layers, db.revisions], () =>
    Promise.all([listClipEvents(db, clip.id), getLayer(db, clip.id, 'gt', frameIndex), listRevisions(db, clip.id, 'gt', frameIndex)]),
  );
  const baseline = reviewBaseline(events);
  if (!baseline) return null;
  const size = { width: clip.width, height: clip.height };
  const current = layer ? decodeLayer(parseLayer({ act: layer.act, trf: layer.trf }), size) : { ...size, data: new Uint8Array(size.width * size.height) };
  const v = annotatorVersion(current, revisions, frameIndex, baseline);
  return { frameIndex, baseline, annotator: v.map, current, diff: diffMaps(v.map, current), reviewers: v.reviewers, undone: v.undone.length };
}
