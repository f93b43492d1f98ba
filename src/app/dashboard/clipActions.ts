/**
 * What the dashboard does to clips and projects — edit, move to the trash, restore, delete for
 * good — each under the clip write lock (workspace/clipWriteLock.ts): a clip open in another tab's
 * editor is refused with a message naming it, before anything is written, so that editor never
 * finds its clip renamed, hidden or gone under it. The store functions themselves take no locks.
 * A team project's clip is trashed and restored for everyone, so only by its managers; deleting one
 * for good deletes this browser's copy only (docs/sync.md "Deletions").
 */
import type { SpocDb } from '../../store/db';
import { updateClip, type ClipPatch } from '../../store/clips';
import { StoreError } from '../../store/errors';
import { clipIdsOfProjects, listTrashedClips, listTrashedProjects, purgeProjects, restoreClip, trashClip, trashProject } from '../../store/trash';
import type { Clip, Project } from '../../store/types';
import { openVideoFiles, removeUnreferencedVideos, removeVideosIfUnused } from '../../store/videoFiles';
import { purgeClipsHere, teamTrashRefusal, type TeamRole } from '../../sync';
import { signedInUser, useAccount } from '../../workspace/account';
import { storedClipRef, withClipWriteLock, type ClipRef } from '../../workspace/clipWriteLock';

async function refs(db: SpocDb, clipIds: readonly string[]): Promise<ClipRef[]> {
  return Promise.all(clipIds.map((id) => storedClipRef(db, id)));
}

/** Renames a clip or changes its verb, object, descriptions or subset (store rules apply). */
export async function editClip(db: SpocDb, clipId: string, patch: ClipPatch): Promise<Clip> {
  return withClipWriteLock(await refs(db, [clipId]), 'Cannot change it', () => updateClip(db, clipId, patch));
}

/** The signed-in user's role in a project of the team server this page came from (null: not known now). */
async function roleOnThisServer(serverProjectId: string): Promise<TeamRole | null> {
  if (signedInUser(useAccount.getState()) === null) return null;
  const projects = await useAccount.getState().server.projects();
  return projects.find((p) => p.id === serverProjectId)?.role ?? null;
}

/** A team project's clip goes to the trash for everyone, so only its managers may (sync/teamTrash.ts). */
async function checkTeamTrash(db: SpocDb, clipId: string, what: 'trash' | 'restore', roleOf: RoleLookup): Promise<void> {
  const refusal = await teamTrashRefusal(db, clipId, what, roleOf);
  if (refusal !== null) throw new StoreError('invalid', refusal);
}

type RoleLookup = (serverProjectId: string) => Promise<TeamRole | null>;

export async function moveClipToTrash(db: SpocDb, clipId: string, roleOf: RoleLookup = roleOnThisServer): Promise<Clip> {
  await checkTeamTrash(db, clipId, 'trash', roleOf);
  return withClipWriteLock(await refs(db, [clipId]), 'Cannot move it to the trash', () => trashClip(db, clipId));
}

export async function restoreClipFromTrash(db: SpocDb, clipId: string, roleOf: RoleLookup = roleOnThisServer): Promise<Clip> {
  await checkTeamTrash(db, clipId, 'restore', roleOf);
  return withClipWriteLock(await refs(db, [clipId]), 'Cannot restore it', () => restoreClip(db, clipId));
}

/** Deletes trashed clips for good (one, or the whole trash of a project); all or nothing. */
export async function deleteClipsForGood(db: SpocDb, clipIds: readonly string[]): Promise<number> {
  const videos = await videoHashesOf(db, clipIds);
  // A team project's clip is deleted in this browser only; the server keeps it (sync/teamTrash.ts).
  const n = await withClipWriteLock(await refs(db, clipIds), 'Cannot delete it for good', () => purgeClipsHere(db, clipIds));
  await forgetVideos(db, videos);
  return n;
}

/** The source videos (store/videoFiles.ts) the clips reference: deleting them for good may free the files. */
async function videoHashesOf(db: SpocDb, clipIds: readonly string[]): Promise<string[]> {
  return (await db.clips.bulkGet([...clipIds])).flatMap((c) => (c?.source.video ? [c.source.video.sha256] : []));
}

/**
 * Removes the videos no clip references any more, and leftovers of failed or crashed imports; a
 * failure leaves a file the next delete removes, never breaks the delete.
 */
async function forgetVideos(db: SpocDb, hashes: readonly string[]): Promise<void> {
  const files = await openVideoFiles();
  await removeVideosIfUnused(db, files, hashes).catch(() => undefined);
  await removeUnreferencedVideos(db, files).catch(() => undefined);
}

export async function emptyClipTrash(db: SpocDb, projectId: string): Promise<number> {
  return deleteClipsForGood(db, (await listTrashedClips(db, projectId)).map((c) => c.id));
}

/** Moves a project to the trash; refused while any of its clips is open in another tab. */
export async function moveProjectToTrash(db: SpocDb, projectId: string): Promise<Project> {
  const clips = await refs(db, await clipIdsOfProjects(db, [projectId]));
  return withClipWriteLock(clips, 'Cannot move the project to the trash', () => trashProject(db, projectId));
}

/** Deletes trashed projects for good, with every clip under them; all or nothing. */
export async function deleteProjectsForGood(db: SpocDb, projectIds: readonly string[]): Promise<number> {
  const ids = await clipIdsOfProjects(db, projectIds);
  const videos = await videoHashesOf(db, ids);
  const n = await withClipWriteLock(await refs(db, ids), 'Cannot delete the project for good', () => purgeProjects(db, projectIds));
  await forgetVideos(db, videos);
  return n;
}

export async function emptyProjectTrash(db: SpocDb): Promise<number> {
  return deleteProjectsForGood(db, (await listTrashedProjects(db)).map((p) => p.id));
}
