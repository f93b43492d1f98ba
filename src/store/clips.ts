import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipCommentRows, clipEventRows, clipFlagDismissals, clipFrameImages, clipFrames, clipLayers, clipObjectRows, clipRevisions, clipVerdictRows } from './keys';
import { touchClip, touchTables } from './touch';
import { CLIP_STATUSES, type Clip, type ClipStatus, type Osc } from './types';
import { clipNameProblem, nounProblem, verbProblem } from './clipNames';

/** What may change on a clip after import; size, frames and source are fixed by the import. */
export type ClipPatch = Partial<Pick<Clip, 'name' | 'osc' | 'subset' | 'status' | 'assignee'>>;

/** Whether the clip is in the trash (store/trash.ts): kept, but counted nowhere until restored. */
export function isTrashed(clip: Pick<Clip, 'deletedAt'>): boolean {
  return clip.deletedAt !== undefined;
}

/**
 * Whether lists, progress, metrics and exports count the clip: its import finished and it is not in
 * the trash. Every reader of a project's clips filters with this one predicate.
 */
export function isListedClip(clip: Clip): boolean {
  return !isIncompleteImport(clip) && !isTrashed(clip);
}

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
 * progress, exports and metrics must not count them (listIncompleteImports shows them). So are
 * clips in the trash (listTrashedClips shows them).
 */
export async function listClips(db: SpocDb, projectId: string): Promise<Clip[]> {
  const clips = await db.clips.where('projectId').equals(projectId).toArray();
  return clips.filter(isListedClip).sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
}

/** A review queue: the project's listed clips in one status, e.g. everything `submitted`. */
export async function listClipsByStatus(db: SpocDb, projectId: string, status: ClipStatus): Promise<Clip[]> {
  const clips = await db.clips.where('[projectId+status]').equals([projectId, status]).toArray();
  return clips.filter(isListedClip).sort((a, b) => a.updatedAt - b.updatedAt);
}

/**
 * Every name a project's clips hold, lower-cased: listed, in the trash (a restore must not bring
 * back a second clip of one name) and incomplete. New names are picked outside this set.
 */
export async function takenClipNames(db: SpocDb, projectId: string, exceptClipId?: string): Promise<Set<string>> {
  const clips = await db.clips.where('projectId').equals(projectId).toArray();
  return new Set(clips.filter((c) => c.id !== exceptClipId).map((c) => c.name.toLowerCase()));
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

/**
 * Changes a clip's metadata. A new name must be usable as a file name and differ from every other
 * clip name of the project (trash included); a changed verb must be one word and a changed object a
 * usable folder name, since exports write them as paths. Fields a patch leaves as they were are not
 * re-checked, so rows stored before these rules can still be edited (and fixed) one field at a time.
 */
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
    if (patch.name !== undefined && patch.name.trim() !== next.name) next.name = await checkedNewName(db, next, patch.name.trim());
    if (patch.osc !== undefined) next.osc = checkedOsc(next.osc, patch.osc);
    if (patch.subset !== undefined) next.subset = patch.subset;
    if (patch.status !== undefined) next.status = patch.status;
    // An explicit `assignee: undefined` means "unassign": drop the key rather than store undefined.
    if (patch.assignee !== undefined) next.assignee = patch.assignee;
    else if ('assignee' in patch) delete next.assignee;
    await db.clips.put(next);
    return next;
  });
}

async function checkedNewName(db: SpocDb, clip: Clip, name: string): Promise<string> {
  const problem = clipNameProblem(name);
  if (problem) throw new StoreError('invalid', `${problem} Nothing was changed.`);
  const holder = (await db.clips.where('projectId').equals(clip.projectId).toArray()).find(
    (c) => c.id !== clip.id && c.name.toLowerCase() === name.toLowerCase(),
  );
  if (holder) {
    const where = isTrashed(holder) ? "in this project's trash" : 'of this project';
    throw new StoreError('invalid', `Another clip ${where} is already named "${holder.name}"; pick another name. Nothing was changed.`);
  }
  return name;
}

function checkedOsc(current: Osc, osc: Osc): Osc {
  const next: Osc = { verb: osc.verb.trim().toLowerCase(), noun: osc.noun.trim(), actionable: osc.actionable.trim(), transformed: osc.transformed.trim() };
  const problem =
    (next.verb !== current.verb ? verbProblem(next.verb) : null) ??
    (next.noun !== current.noun ? nounProblem(next.noun) : null) ??
    (!next.actionable ? 'The actionable description is empty; describe the object before the change, e.g. "whole potato".' : null) ??
    (!next.transformed ? 'The transformed description is empty; describe the object after the change, e.g. "mashed potato".' : null);
  if (problem) throw new StoreError('invalid', `${problem} Nothing was changed.`);
  return next;
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

/** Deletes a clip with its frames, images, thumbnail, layers, revisions, flag dismissals, lifecycle events, comments, frame verdicts and objects, all in one transaction. */
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
  return [db.clips, db.frames, db.frameImages, db.thumbnails, db.layers, db.revisions, db.reviewFlags, db.clipEvents, db.comments, db.frameVerdicts, db.objects];
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
  await clipObjectRows(db, clipId).delete();
  await db.clips.delete(clipId);
}

/**
 * Gives clips to one person (or to nobody, `assignee` undefined) in one transaction: a bulk
 * assignment lands whole or not at all. Names are trimmed; a blank one means "unassign".
 * Returns how many clips changed hands (the others already had that assignee).
 */
export async function assignClips(db: SpocDb, ids: readonly string[], assignee: string | undefined): Promise<number> {
  const who = assignee?.trim() || undefined;
  if (who !== undefined && who.length > 200) throw new StoreError('invalid', 'An assignee name has at most 200 characters.');
  return db.transaction('rw', touchTables(db), async () => {
    let changed = 0;
    const now = Date.now();
    for (const id of ids) {
      const current = await db.clips.get(id);
      if (!current) throw notFound(`Clip ${id}`);
      if (current.assignee === who) continue;
      const next: Clip = { ...(await touchClip(db, id, now, false)) };
      if (who === undefined) delete next.assignee;
      else next.assignee = who;
      await db.clips.put(next);
      changed++;
    }
    return changed;
  });
}
