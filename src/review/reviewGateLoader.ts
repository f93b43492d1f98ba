/** The store side of the review gate: the facts `reviewGate.ts` judges, read from one snapshot. */
import { Dexie } from 'dexie';
import type { SpocDb } from '../store/db';
import { clipFrames } from '../store/keys';
import { layerAreas } from '../store/layers';
import { listFrameVerdicts } from '../store/frameVerdicts';
import { notFound } from '../store/errors';
import { unansweredFrames, type ApprovalFacts } from './reviewGate';

/** Tables `loadApprovalFacts` reads (a caller's transaction must include them). */
export const approvalFactTables = (db: SpocDb) => [db.clips, db.frames, db.frameVerdicts, db.revisions];

/**
 * Ignored frames, verdicts in force and the authors of the clip's gt revisions. Reads every gt
 * revision row of the clip once (there is no author index); call it inside the approving
 * transaction so the facts and the step agree.
 */
export async function loadApprovalFacts(db: SpocDb, clipId: string): Promise<ApprovalFacts> {
  const clip = await db.clips.get(clipId);
  if (!clip) throw notFound('Clip');
  const ignored = new Set<number>();
  await clipFrames(db, clipId).each((f) => {
    if (f.ignored) ignored.add(f.index);
  });
  const painters = new Set<string>();
  await db.revisions
    .where('[clipId+source+frameIndex]')
    .between([clipId, 'gt', Dexie.minKey], [clipId, 'gt', Dexie.maxKey])
    .each((r) => {
      painters.add(r.author.trim());
    });
  return { frameCount: clip.frameCount, ignored, verdicts: await listFrameVerdicts(db, clipId), painters };
}

/** Frames without an answer (not painted, ignored or marked empty), for the submit warning; one snapshot. */
export async function loadUnansweredFrames(db: SpocDb, clipId: string): Promise<number[]> {
  return db.transaction('r', [db.frames, db.layers], async () => {
    const [frames, areas] = await Promise.all([clipFrames(db, clipId).toArray(), layerAreas(db, clipId, 'gt')]);
    return unansweredFrames(frames, new Set(areas.filter((a) => a.actArea + a.trfArea > 0).map((a) => a.frameIndex)));
  });
}
