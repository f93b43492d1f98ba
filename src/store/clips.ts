import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipCommentRows, clipEventRows, clipFlagDismissals, clipFrameImages, clipFrames, clipLayers, clipRevisions, clipVerdictRows } from './keys';
import { touchClip, touchTables } from './touch';
import { CLIP_STATUSES, type Clip, type ClipStatus } from './types';

/** What may change on a clip after import; size, frames and source are fixed by the import. */
export type ClipPatch = Partial<Pick<Clip, 'name' | 'osc' | 'subset' | 'status' | 'assignee'>>;

/**
 * Whether the clip's import has not finished: its rows are being written in bounded transactions,
 * or were, until a crash or closed tab interrupted them (store/importCommit.ts).
 */
export function isIncompleteImport(clip: Clip): boolean {
  return clip.importing !== undefined;
}

/**
 * Complete clips of a project in import order (name breaks ties, e.g. a batch imported in one go).
 * Incomplete imports are left out: their frame count promises frames that are not there, so
 * progress, exports and metrics must not count them (listIncompleteImports shows them).
 */
export async function listClips(db: SpocDb, projectId: string): Promise<Clip[]> {
  const clips = await db.clips.where('projectId').equals(projectId).toArray();
  return clips.filter((c) => !isIncompleteImport(c)).sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
}

/** A review queue: the project's complete clips in one status, e.g. everything `submitted`. */
export async function listClipsByStatus(db: SpocDb, projectId: string, status: ClipStatus): Promise<Clip[]> {
  const clips = await db.clips.where('[projectId+status]').equals([projectId, status]).toArray();
  return clips.filter((c) => !isIncompleteImport(c)).sort((a, b) => a.updatedAt - b.updatedAt);
}

export interface IncompleteImport {
  clip: Clip;
  /** Frame images stored so far, out of `clip.importing.framesExpected`. */
  framesSaved: number;
  framesExpected: number;
}

/** A project's clips whose import has not finished, oldest first, with how far each got. */
export async function listIncompleteImports(db: SpocDb, projectId: string): Promise<IncompleteImport[]> {
  const clips = (await db.clips.where('projectId').equals(projectId).toArray()).filter(isIncompleteImport);
  clips.sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
  return Promise.all(
    clips.map(async (clip) => ({
      clip,
      framesSaved: await clipFrameImages(db, clip.id).count(),
      framesExpected: clip.importing?.framesExpected ?? clip.frameCount,
    })),
  );
}

/**
 * Removes an incomplete import with every row keyed by its clip. Refuses a clip whose import has
 * finished in the meantime (another tab, a slow save): a stale "Remove" must never delete a whole clip.
 */
export async function removeIncompleteImport(db: SpocDb, id: string): Promise<void> {
  await db.transaction('rw', clipTables(db), async () => {
    const clip = await db.clips.get(id);
    if (!clip) return; // already removed (another tab)
    if (!isIncompleteImport(clip)) {
      throw new StoreError('invalid', `The import of clip "${clip.name}" has finished in the meantime; nothing was removed.`);
    }
    await deleteClipRows(db, id);
  });
}

export async function getClip(db: SpocDb, id: string): Promise<Clip | undefined> {
  return db.clips.get(id);
}

export async function updateClip(db: SpocDb, id: string, patch: ClipPatch): Promise<Clip> {
  if (patch.name !== undefined && !patch.name.trim()) throw new StoreError('invalid', 'A clip needs a name.');
  if (patch.status !== undefined && !CLIP_STATUSES.includes(patch.status)) {
    throw new StoreError('invalid', `Unknown clip status "${patch.status}".`);
  }
  if (patch.subset !== undefined && patch.subset !== 'seen' && patch.subset !== 'novel') {
    throw new StoreError('invalid', `Unknown subset "${patch.subset}".`);
  }
  return db.transaction('rw', touchTables(db), async () => {
    const next: Clip = { ...(await touchClip(db, id, Date.now(), false)) };
    if (patch.name !== undefined) next.name = patch.name.trim();
    if (patch.osc !== undefined) next.osc = patch.osc;
    if (patch.subset !== undefined) next.subset = patch.subset;
    if (patch.status !== undefined) next.status = patch.status;
    // An explicit `assignee: undefined` means "unassign": drop the key rather than store undefined.
    if (patch.assignee !== undefined) next.assignee = patch.assignee;
    else if ('assignee' in patch) delete next.assignee;
    await db.clips.put(next);
    return next;
  });
}

export async function setClipStatus(db: SpocDb, id: string, status: ClipStatus): Promise<Clip> {
  return updateClip(db, id, { status });
}

export async function getThumbnail(db: SpocDb, clipId: string): Promise<Blob | undefined> {
  return (await db.thumbnails.get(clipId))?.blob;
}

/** Replaces a clip's thumbnail (e.g. regenerated from a better frame). */
export async function putThumbnail(db: SpocDb, clipId: string, blob: Blob): Promise<void> {
  await db.transaction('rw', db.clips, db.thumbnails, async () => {
    if (!(await db.clips.get(clipId))) throw notFound('Clip');
    await db.thumbnails.put({ clipId, blob });
  });
}

/** Deletes a clip with its frames, images, thumbnail, layers, revisions, flag dismissals, lifecycle events, comments and frame verdicts, all in one transaction. */
export async function deleteClip(db: SpocDb, id: string): Promise<void> {
  await db.transaction('rw', [...clipTables(db), db.projects], async () => {
    const clip = await db.clips.get(id);
    if (!clip) return; // already gone (another tab): deleting is idempotent
    await deleteClipRows(db, id);
    await db.projects.update(clip.projectId, { updatedAt: Date.now() });
  });
}

/** Every table holding rows of a clip; a cascade must lock all of them. */
export function clipTables(db: SpocDb) {
  return [db.clips, db.frames, db.frameImages, db.thumbnails, db.layers, db.revisions, db.reviewFlags, db.clipEvents, db.comments, db.frameVerdicts];
}

/** The cascade itself; runs inside the caller's transaction over `clipTables`. */
export async function deleteClipRows(db: SpocDb, clipId: string): Promise<void> {
  await clipFrames(db, clipId).delete();
  await clipFrameImages(db, clipId).delete();
  await db.thumbnails.delete(clipId);
  await clipLayers(db, clipId).delete();
  await clipRevisions(db, clipId).delete();
  await clipFlagDismissals(db, clipId).delete();
  await clipEventRows(db, clipId).delete();
  await clipCommentRows(db, clipId).delete();
  await clipVerdictRows(db, clipId).delete();
  await db.clips.delete(clipId);
}
