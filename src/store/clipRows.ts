/**
 * A clip's rows as a whole, for bundles (io/bundle): read them all, or add them all, inside the
 * caller's transaction. Rows come in checked by their validators (records/, which the bundle reader
 * runs on every row); the key ranges they live under stay in this folder (keys.ts).
 */
import type { SpocDb } from './db';
import type { Table } from 'dexie';
import { newId, newRowId } from './ids';
import { clipCommentRows, clipEventRows, clipFlagDismissals, clipFrameImages, clipFrames, clipLayers, clipObjectRows, clipRevisions, clipVerdictRows } from './keys';
import type { Clip, ClipComment, ClipEvent, ClipObject, FlagDismissal, Frame, FrameImage, FrameVerdict, Layer, LayerRelation, MetaEntry, Project, Revision, RevisionObject, Thumbnail } from './types';

/** Every row of one clip, logs in their order (revisions, events, verdicts by seq; comments by id). */
export interface ClipRows {
  clip: Clip;
  frames: Frame[];
  frameImages: FrameImage[];
  thumbnail: Thumbnail | undefined;
  layers: Layer[];
  revisions: Revision[];
  reviewFlags: FlagDismissal[];
  clipEvents: ClipEvent[];
  comments: ClipComment[];
  frameVerdicts: FrameVerdict[];
  objects: ClipObject[];
}

/** The tables a clip's rows live in (for the caller's read transaction). */
export function clipRowTables(db: SpocDb) {
  return [db.clips, db.frames, db.frameImages, db.thumbnails, db.layers, db.revisions, db.reviewFlags, db.clipEvents, db.comments, db.frameVerdicts, db.objects];
}

/** A clip's rows, or null when the clip is not here. Run it inside a transaction for one consistent view. */
export async function readClipRows(db: SpocDb, clipId: string): Promise<ClipRows | null> {
  const clip = await db.clips.get(clipId);
  if (!clip) return null;
  const [frames, frameImages, thumbnail, layers, revisions, reviewFlags, clipEvents, comments, frameVerdicts, objects] = await Promise.all([
    clipFrames(db, clipId).toArray(),
    clipFrameImages(db, clipId).toArray(),
    db.thumbnails.get(clipId),
    clipLayers(db, clipId).toArray(),
    clipRevisions(db, clipId).toArray(),
    clipFlagDismissals(db, clipId).toArray(),
    clipEventRows(db, clipId).toArray(),
    clipCommentRows(db, clipId).toArray(),
    clipVerdictRows(db, clipId).toArray(),
    clipObjectRows(db, clipId).toArray(),
  ]);
  revisions.sort((a, b) => a.seq - b.seq);
  clipEvents.sort((a, b) => a.seq - b.seq);
  comments.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  frameVerdicts.sort((a, b) => a.seq - b.seq);
  objects.sort((a, b) => a.number - b.number || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // A sync server's cursor is that server's number for the row, not part of the work: bundles leave
  // it out (a bundle imported elsewhere is not on that server's log), and merges compare without it.
  for (const rows of [revisions, clipEvents, frameVerdicts]) for (const row of rows) delete row.cursor;
  return { clip, frames, frameImages, thumbnail, layers, revisions, reviewFlags, clipEvents, comments, frameVerdicts, objects };
}

/** A new clip with its frames, images and thumbnail (the caller adds its other rows). */
export async function addClipBase(db: SpocDb, clip: Clip, frames: Frame[], frameImages: FrameImage[], thumbnail: Blob | null): Promise<void> {
  await db.clips.add(clip);
  await db.frames.bulkAdd(frames);
  await db.frameImages.bulkAdd(frameImages);
  if (thumbnail) await db.thumbnails.add({ clipId: clip.id, blob: thumbnail });
}

export async function addLayerRows(db: SpocDb, layers: Layer[]): Promise<void> {
  if (layers.length > 0) await db.layers.bulkAdd(layers);
}

export async function addFlagDismissalRows(db: SpocDb, flags: FlagDismissal[]): Promise<void> {
  if (flags.length > 0) await db.reviewFlags.bulkAdd(flags);
}

/**
 * Log rows with their ids kept when `keep` and free here, else new ones, made in row order so they
 * sort as the log does (docs/sync.md "Row identity"). A clip that moves between browsers stays the
 * same rows; a copy is other rows; and no id is ever given to two rows (an id taken here, or twice
 * in `rows`, is replaced).
 */
async function settleIds<T extends { id: string }>(table: Table<T, number, unknown>, rows: readonly T[], keep: boolean): Promise<T[]> {
  const taken = new Set(keep ? ((await table.where('id').anyOf(rows.map((r) => r.id)).keys()) as string[]) : []);
  return rows.map((r) => {
    if (keep && !taken.has(r.id)) {
      taken.add(r.id);
      return r;
    }
    return { ...r, id: newRowId() };
  });
}

/**
 * Appends revisions in their order. Their seq numbers and ids are kept when `keep` and none is taken
 * in this store (always so in a fresh one, which then holds the exact same log), else new ones are
 * assigned in the same order (ids one by one: settleIds).
 */
export async function appendRevisionRows(db: SpocDb, revisions: Revision[], keep = true): Promise<void> {
  if (revisions.length === 0) return;
  const rows = await settleIds(db.revisions, revisions, keep);
  const keepSeqs = keep && (await db.revisions.bulkGet(rows.map((r) => r.seq))).every((r) => r === undefined);
  if (keepSeqs) await db.revisions.bulkAdd(rows);
  else await db.revisions.bulkAdd(rows.map(({ seq: _seq, ...rest }) => rest));
}

/** Appends lifecycle steps in their order; the store numbers them (fresh seqs, ascending in that order), ids as settleIds says. */
export async function appendClipEventRows(db: SpocDb, events: Omit<ClipEvent, 'seq'>[], keep = true): Promise<void> {
  if (events.length === 0) return;
  const rows = await settleIds(db.clipEvents, events.map(({ id, clipId, action, from, to, by, at, note }) => (note === undefined ? { id, clipId, action, from, to, by, at } : { id, clipId, action, from, to, by, at, note })), keep);
  await db.clipEvents.bulkAdd(rows);
}

/** Appends frame verdicts in their order; the store numbers them (fresh seqs, ascending in that order), ids as settleIds says. */
export async function appendFrameVerdictRows(db: SpocDb, verdicts: Omit<FrameVerdict, 'seq'>[], keep = true): Promise<void> {
  if (verdicts.length === 0) return;
  const rows = await settleIds(
    db.frameVerdicts,
    verdicts.map(({ id, clipId, frameIndex, verdict, by, at, note }) => (note === undefined ? { id, clipId, frameIndex, verdict, by, at } : { id, clipId, frameIndex, verdict, by, at, note })),
    keep,
  );
  await db.frameVerdicts.bulkAdd(rows);
}

/**
 * Adds comments. Ids are kept when `keepIds` and free in this store; any other id (every one for a
 * copy, else the ones some other clip here holds) is replaced by a new UUID, replies following
 * their root's new id.
 */
export async function addCommentRows(db: SpocDb, comments: ClipComment[], keepIds: boolean): Promise<void> {
  if (comments.length === 0) return;
  const taken = await db.comments.bulkGet(comments.map((c) => c.id));
  const renamed = new Map<string, string>();
  comments.forEach((c, i) => {
    if (!keepIds || taken[i] !== undefined) renamed.set(c.id, newId());
  });
  await db.comments.bulkAdd(
    comments.map((c) => {
      const row: ClipComment = { ...c, id: renamed.get(c.id) ?? c.id };
      if (c.parentId !== undefined) row.parentId = renamed.get(c.parentId) ?? c.parentId;
      return row;
    }),
  );
}

/**
 * Adds a clip's objects. Ids are kept when `keepIds` and free in this store; any other id (every one
 * for a copy, else one some other clip here holds) is replaced by a new UUID. Returns the renames
 * (old id -> new id): the layers and revisions added with these objects must follow them
 * (`layerWithObjectIds`, `revisionWithObjectIds`), as replies follow their root in addCommentRows.
 */
export async function addObjectRows(db: SpocDb, objects: ClipObject[], keepIds: boolean): Promise<ReadonlyMap<string, string>> {
  const renamed = new Map<string, string>();
  if (objects.length === 0) return renamed;
  const taken = await db.objects.bulkGet(objects.map((o) => o.id));
  objects.forEach((o, i) => {
    if (!keepIds || taken[i] !== undefined) renamed.set(o.id, newId());
  });
  await db.objects.bulkAdd(objects.map((o) => (renamed.has(o.id) ? { ...o, id: renamed.get(o.id)! } : o)));
  return renamed;
}

/** A layer whose objects (and relations) follow `renamed` (addObjectRows); the very same row when nothing it names was renamed. */
export function layerWithObjectIds(layer: Layer, renamed: ReadonlyMap<string, string>): Layer {
  const relationsNamed = layer.relations?.some((r) => namesRenamed(r, renamed)) ?? false;
  if (!layer.objects?.some((o) => renamed.has(o.id)) && !relationsNamed) return layer;
  const out = { ...layer };
  if (layer.objects) out.objects = layer.objects.map((o) => (renamed.has(o.id) ? { ...o, id: renamed.get(o.id)! } : o));
  if (layer.relations && relationsNamed) out.relations = followRelations(layer.relations, renamed);
  return out;
}

/** A revision whose owners and relations follow `renamed` (addObjectRows); the very same row when nothing it names was renamed. */
export function revisionWithObjectIds<T extends Pick<Revision, 'objectsBefore' | 'objectsAfter' | 'relationsBefore' | 'relationsAfter'>>(revision: T, renamed: ReadonlyMap<string, string>): T {
  const names = (list: RevisionObject[] | undefined) => list?.some((o) => renamed.has(o.id)) ?? false;
  const namesRelation = (list: LayerRelation[] | undefined) => list?.some((r) => namesRenamed(r, renamed)) ?? false;
  if (!names(revision.objectsBefore) && !names(revision.objectsAfter) && !namesRelation(revision.relationsBefore) && !namesRelation(revision.relationsAfter)) return revision;
  const follow = (list: RevisionObject[]) => list.map((o) => (renamed.has(o.id) ? { ...o, id: renamed.get(o.id)! } : o));
  const out = { ...revision };
  if (revision.objectsBefore) out.objectsBefore = follow(revision.objectsBefore);
  if (revision.objectsAfter) out.objectsAfter = follow(revision.objectsAfter);
  if (revision.relationsBefore) out.relationsBefore = followRelations(revision.relationsBefore, renamed);
  if (revision.relationsAfter) out.relationsAfter = followRelations(revision.relationsAfter, renamed);
  return out;
}

function namesRenamed(r: LayerRelation, renamed: ReadonlyMap<string, string>): boolean {
  return renamed.has(r.subjectId) || (r.objectId !== undefined && renamed.has(r.objectId));
}

function followRelations(list: readonly LayerRelation[], renamed: ReadonlyMap<string, string>): LayerRelation[] {
  return list.map((r) => {
    const out = { ...r, subjectId: renamed.get(r.subjectId) ?? r.subjectId };
    if (r.objectId !== undefined) out.objectId = renamed.get(r.objectId) ?? r.objectId;
    return out;
  });
}

/** Marks a clip changed now (rows were merged into it). */
export async function touchClipRow(db: SpocDb, clipId: string, now: number): Promise<void> {
  await db.clips.update(clipId, { updatedAt: now });
}

export async function getProjectRow(db: SpocDb, id: string): Promise<Project | undefined> {
  return db.projects.get(id);
}

export async function addProjectRow(db: SpocDb, project: Project): Promise<void> {
  await db.projects.add(project);
}

export async function putProjectRow(db: SpocDb, project: Project): Promise<void> {
  await db.projects.put(project);
}

export async function getMetaRow(db: SpocDb, key: string): Promise<MetaEntry | undefined> {
  return db.meta.get(key);
}

export async function addMetaRow(db: SpocDb, entry: MetaEntry): Promise<void> {
  await db.meta.add(entry);
}
