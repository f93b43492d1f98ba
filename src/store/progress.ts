import type { SpocDb } from './db';
import { isListedClip } from './clips';
import { clipFrames, sourceAreaKeys } from './keys';
import { CLIP_STATUSES, type ClipStatus, type ClipSubset, type Frame } from './types';

export interface ClipProgress {
  /** Non-ignored frames with gt paint (actArea + trfArea > 0) or explicitly reviewed. */
  annotated: number;
  /** Frames marked ignored, whatever their layers hold. */
  ignored: number;
  remaining: number;
  total: number;
}

/**
 * Pure counting rule, shared by clipProgress and projectStats. An ignored frame never counts as
 * annotated (ignoring is its own answer); a reviewed frame with an empty mask does (empty is an answer).
 */
export function countProgress(frames: readonly Frame[], paintedFrames: ReadonlySet<number>): ClipProgress {
  let annotated = 0;
  let ignored = 0;
  for (const f of frames) {
    if (f.ignored) ignored++;
    else if (f.reviewed || paintedFrames.has(f.index)) annotated++;
  }
  return { annotated, ignored, remaining: frames.length - annotated - ignored, total: frames.length };
}

/** Frames with gt paint, from the area index alone (no RLE is loaded). */
async function paintedGtFrames(db: SpocDb, clipId: string): Promise<Set<number>> {
  const keys = (await sourceAreaKeys(db, clipId, 'gt').keys()) as unknown as [string, string, number, number, number][];
  return new Set(keys.filter((k) => k[3] + k[4] > 0).map((k) => k[2]));
}

export async function clipProgress(db: SpocDb, clipId: string): Promise<ClipProgress> {
  // One read transaction: frames and layers from the same snapshot.
  return db.transaction('r', [db.frames, db.layers], async () => {
    const [frames, painted] = await Promise.all([clipFrames(db, clipId).toArray(), paintedGtFrames(db, clipId)]);
    return countProgress(frames, painted);
  });
}

export interface ProjectStats {
  clips: number;
  frames: ClipProgress;
  byStatus: Record<ClipStatus, number>;
  bySubset: Record<ClipSubset, number>;
  /** Per clip, for dashboard rows without a second pass. */
  perClip: Record<string, ClipProgress>;
}

/** Everything the project dashboard shows, in one read transaction; frame metadata and index keys only. */
export async function projectStats(db: SpocDb, projectId: string): Promise<ProjectStats> {
  return db.transaction('r', [db.clips, db.frames, db.layers], async () => {
    // Incomplete imports (an interrupted chunked import) count nowhere until removed or finished,
    // and clips in the trash nowhere until restored.
    const clips = (await db.clips.where('projectId').equals(projectId).toArray()).filter(isListedClip);
    const byStatus = Object.fromEntries(CLIP_STATUSES.map((s) => [s, 0])) as Record<ClipStatus, number>;
    const bySubset: Record<ClipSubset, number> = { seen: 0, novel: 0 };
    const frames: ClipProgress = { annotated: 0, ignored: 0, remaining: 0, total: 0 };
    const perClip: Record<string, ClipProgress> = {};
    for (const clip of clips) {
      byStatus[clip.status]++;
      bySubset[clip.subset]++;
      const [rows, painted] = await Promise.all([clipFrames(db, clip.id).toArray(), paintedGtFrames(db, clip.id)]);
      const p = countProgress(rows, painted);
      perClip[clip.id] = p;
      frames.annotated += p.annotated;
      frames.ignored += p.ignored;
      frames.remaining += p.remaining;
      frames.total += p.total;
    }
    return { clips: clips.length, frames, byStatus, bySubset, perClip };
  });
}
