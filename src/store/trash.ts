/**
 * The trash: deleting a clip or a project first only marks it (`deletedAt`), so a slip of the mouse
 * costs nothing. A trashed clip keeps every row (frames, images, layers, history, reviews); lists,
 * progress, metrics and exports skip it (clips.ts isListedClip), and a restore gives it back exactly
 * as it was. Emptying the trash, or deleting one item for good, removes every row keyed by the clip
 * (clips.ts deleteClipRows) in one transaction.
 *
 * A trashed project hides with everything under it; its clips keep their own marks, so restoring it
 * brings back exactly the clips that were listed before (clips trashed earlier stay in its trash).
 *
 * These functions take no locks; the dashboard (app/dashboard/clipActions.ts) runs them under the
 * clip write lock, so a clip open in another tab's editor is never pulled away from under it.
 */
import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipTables, deleteClipRows, isIncompleteImport, isTrashed } from './clips';
import type { Clip, Project } from './types';

/** Moves a clip to the trash. Moving it twice is harmless (another tab may have been first). */
export async function trashClip(db: SpocDb, clipId: string, now = Date.now()): Promise<Clip> {
  return db.transaction('rw', [db.clips, db.projects], async () => {
    const clip = await db.clips.get(clipId);
    if (!clip) throw notFound('Clip');
    if (isIncompleteImport(clip)) {
      throw new StoreError('invalid', `"${clip.name}" is an incomplete import; remove it with its Remove button instead. Nothing was changed.`);
    }
    if (isTrashed(clip)) return clip;
    // Only the mark changes on the clip row, so a restore (which drops the mark) is exact.
    const next: Clip = { ...clip, deletedAt: now };
    await db.clips.put(next);
    await db.projects.update(clip.projectId, { updatedAt: now });
    return next;
  });
}

/** Takes a clip out of the trash, every row as it was. Restoring a listed clip does nothing. */
export async function restoreClip(db: SpocDb, clipId: string, now = Date.now()): Promise<Clip> {
  return db.transaction('rw', [db.clips, db.projects], async () => {
    const clip = await db.clips.get(clipId);
    if (!clip) throw notFound('Clip');
    if (!isTrashed(clip)) return clip;
    const next: Clip = { ...clip };
    delete next.deletedAt;
    await db.clips.put(next);
    await db.projects.update(clip.projectId, { updatedAt: now });
    return next;
  });
}

/** A project's trashed clips, most recently trashed first. */
export async function listTrashedClips(db: SpocDb, projectId: string): Promise<Clip[]> {
  const clips = await db.clips.where('projectId').equals(projectId).toArray();
  return clips.filter(isTrashed).sort((a, b) => (b.deletedAt ?? 0) - (a.deletedAt ?? 0) || a.name.localeCompare(b.name));
}

/**
 * Deletes trashed clips for good, with every row keyed by them, in one transaction. Refuses (and
 * deletes nothing) when one of them is no longer in the trash — restored in another tab a moment
 * ago: a stale "Delete forever" must never delete a listed clip.
 */
export async function purgeClips(db: SpocDb, clipIds: readonly string[], now = Date.now()): Promise<number> {
  return db.transaction('rw', [...clipTables(db), db.projects], async () => {
    const clips = (await db.clips.bulkGet([...clipIds])).filter((c): c is Clip => c !== undefined); // gone already: nothing to do
    const listed = clips.find((c) => !isTrashed(c));
    if (listed) throw new StoreError('invalid', `"${listed.name}" is not in the trash (it was restored in the meantime); nothing was deleted.`);
    for (const c of clips) await deleteClipRows(db, c.id);
    for (const projectId of new Set(clips.map((c) => c.projectId))) await db.projects.update(projectId, { updatedAt: now });
    return clips.length;
  });
}

/** Moves a project, with everything under it, to the trash. */
export async function trashProject(db: SpocDb, projectId: string, now = Date.now()): Promise<Project> {
  return db.transaction('rw', db.projects, async () => {
    const project = await db.projects.get(projectId);
    if (!project) throw notFound('Project');
    if (project.deletedAt !== undefined) return project;
    // updatedAt is left alone: it is the project's last change of content, shown again after a restore.
    const next: Project = { ...project, deletedAt: now };
    await db.projects.put(next);
    return next;
  });
}

/** Takes a project out of the trash, exactly as it was. */
export async function restoreProject(db: SpocDb, projectId: string): Promise<Project> {
  return db.transaction('rw', db.projects, async () => {
    const project = await db.projects.get(projectId);
    if (!project) throw notFound('Project');
    if (project.deletedAt === undefined) return project;
    const next: Project = { ...project };
    delete next.deletedAt;
    await db.projects.put(next);
    return next;
  });
}

/** Trashed projects, most recently trashed first. */
export async function listTrashedProjects(db: SpocDb): Promise<Project[]> {
  const projects = await db.projects.toArray();
  return projects.filter((p) => p.deletedAt !== undefined).sort((a, b) => (b.deletedAt ?? 0) - (a.deletedAt ?? 0));
}

/** Ids of every clip of the projects, trashed or not (what a permanent delete removes and must lock). */
export async function clipIdsOfProjects(db: SpocDb, projectIds: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of projectIds) out.push(...(await db.clips.where('projectId').equals(id).primaryKeys()));
  return out;
}

/**
 * Deletes trashed projects for good with every clip and every row under them, in one transaction;
 * refuses (deleting nothing) when one was restored in the meantime.
 */
export async function purgeProjects(db: SpocDb, projectIds: readonly string[]): Promise<number> {
  return db.transaction('rw', [db.projects, ...clipTables(db)], async () => {
    const projects = (await db.projects.bulkGet([...projectIds])).filter((p): p is Project => p !== undefined);
    const listed = projects.find((p) => p.deletedAt === undefined);
    if (listed) throw new StoreError('invalid', `The project "${listed.name}" is not in the trash (it was restored in the meantime); nothing was deleted.`);
    for (const p of projects) {
      for (const clipId of await db.clips.where('projectId').equals(p.id).primaryKeys()) await deleteClipRows(db, clipId);
      await db.projects.delete(p.id);
    }
    return projects.length;
  });
}
