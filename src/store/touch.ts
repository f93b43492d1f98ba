import type { SpocDb } from './db';
import { notFound } from './errors';
import type { Clip } from './types';

/** Tables a write that calls `touchClip` must include in its transaction. */
export function touchTables(db: SpocDb) {
  return [db.clips, db.projects];
}

/**
 * Record that a clip's content changed: bumps the clip's and its project's `updatedAt` (dashboards
 * sort by them) and, when `startWork` is set, moves a `todo` clip to `in_progress` — the first edit
 * means work has started, and nobody should have to remember to click "start".
 * Call inside the writing transaction (with `touchTables`) so the bump commits or rolls back with it.
 */
export async function touchClip(db: SpocDb, clipId: string, now: number, startWork: boolean): Promise<Clip> {
  const clip = await db.clips.get(clipId);
  if (!clip) throw notFound('Clip');
  const next: Clip = { ...clip, updatedAt: now };
  if (startWork && clip.status === 'todo') next.status = 'in_progress';
  await db.clips.put(next);
  await db.projects.update(clip.projectId, { updatedAt: now });
  return next;
}
