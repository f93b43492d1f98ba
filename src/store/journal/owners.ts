/**
 * Which snapshot file owns a row: the journal keeps one snapshot per clip (the clip row and every
 * row keyed by it), one per project row, and one for app settings (`meta`), so a compaction after
 * a stroke rewrites one clip, not the whole store. A new table must be added here:
 * owners.test.ts fails for any table of the schema that is not.
 */
import type { Collection } from 'dexie';
import type { SpocDb } from '../db';
import {
  clipCommentRows,
  clipEventRows,
  clipFlagDismissals,
  clipFrameImages,
  clipFrames,
  clipLayers,
  clipObjectRows,
  clipRevisions,
  clipVerdictRows,
} from '../keys';
import type { JournalOp } from './recordFormat';

/** Tables whose rows belong to a clip, with the query that reads one clip's rows. */
export const CLIP_ROW_TABLES: Record<string, (db: SpocDb, clipId: string) => Collection> = {
  frames: clipFrames,
  frameImages: clipFrameImages,
  layers: clipLayers,
  revisions: clipRevisions,
  reviewFlags: clipFlagDismissals,
  clipEvents: clipEventRows,
  comments: clipCommentRows,
  frameVerdicts: clipVerdictRows,
  objects: clipObjectRows,
  thumbnails: (db, clipId) => db.thumbnails.where('clipId').equals(clipId),
};

/** Tables whose primary key starts with the clip id (a delete by key names its clip). */
const KEY_STARTS_WITH_CLIP = new Set(['frames', 'frameImages', 'layers', 'reviewFlags']);

export const META_OWNER = 'meta';
export const projectOwner = (id: string) => `project-${id}`;
export const clipOwner = (id: string) => `clip-${id}`;
export const snapshotName = (owner: string) => `${owner}.rec`;

/** Owners a transaction changed; `all` when some change cannot be traced to its owner (a delete by seq). */
export interface Touched {
  all: boolean;
  owners: Set<string>;
}

export function touchedBy(ops: readonly JournalOp[], into: Touched = { all: false, owners: new Set() }): Touched {
  for (const op of ops) {
    if (op.table === 'meta') {
      into.owners.add(META_OWNER);
      continue;
    }
    if (op.type === 'put') {
      for (const v of op.values) {
        const row = v as { id?: unknown; clipId?: unknown };
        if (op.table === 'projects' && typeof row.id === 'string') into.owners.add(projectOwner(row.id));
        else if (op.table === 'clips' && typeof row.id === 'string') into.owners.add(clipOwner(row.id));
        else if (typeof row.clipId === 'string') into.owners.add(clipOwner(row.clipId));
        else into.all = true;
      }
    } else if (op.type === 'delete') {
      for (const key of op.keys) {
        if ((op.table === 'projects' || op.table === 'clips' || op.table === 'thumbnails') && typeof key === 'string') {
          into.owners.add(op.table === 'projects' ? projectOwner(key) : clipOwner(key));
        } else if (KEY_STARTS_WITH_CLIP.has(op.table) && Array.isArray(key) && typeof key[0] === 'string') {
          into.owners.add(clipOwner(key[0]));
        } else {
          into.all = true;
        }
      }
    } else {
      const { lower, upper } = op.range;
      const sameClip = Array.isArray(lower) && Array.isArray(upper) && typeof lower[0] === 'string' && lower[0] === upper[0];
      if (KEY_STARTS_WITH_CLIP.has(op.table) && sameClip) into.owners.add(clipOwner(lower[0] as string));
      else into.all = true;
    }
  }
  return into;
}

/** The rows an owner's snapshot holds, read now (call inside one read transaction for consistency). */
export async function ownerRows(db: SpocDb, owner: string): Promise<JournalOp[] | null> {
  if (owner === META_OWNER) {
    const rows = await db.meta.toArray();
    return [{ table: 'meta', type: 'put', values: rows }];
  }
  if (owner.startsWith('project-')) {
    const row = await db.projects.get(owner.slice('project-'.length));
    return row ? [{ table: 'projects', type: 'put', values: [row] }] : null;
  }
  const clipId = owner.slice('clip-'.length);
  const clip = await db.clips.get(clipId);
  if (!clip) return null;
  const ops: JournalOp[] = [{ table: 'clips', type: 'put', values: [clip] }];
  for (const [table, rowsOf] of Object.entries(CLIP_ROW_TABLES)) {
    const values = await rowsOf(db, clipId).toArray();
    if (values.length > 0) ops.push({ table, type: 'put', values });
  }
  return ops;
}

/** Every owner the store has now. */
export async function allOwners(db: SpocDb): Promise<string[]> {
  const projects = (await db.projects.toCollection().primaryKeys()) as string[];
  const clips = (await db.clips.toCollection().primaryKeys()) as string[];
  return [META_OWNER, ...projects.map(projectOwner), ...clips.map(clipOwner)];
}
