import type { SpocDb } from './db';
import { notFound } from './errors';
import { withRowId } from './ids';
import { clipRevisions } from './keys';
import type { LayerSource, Revision, RevisionInput } from './types';
import { checkRevision } from './validate';

/**
 * Appends one revision on its own (e.g. a reviewer's note-only correction record). Edits that also
 * change the layer must use saveLayerEdit, which writes both in one transaction.
 * Returns the revision with its `seq` and `id`.
 */
export async function appendRevision(db: SpocDb, input: RevisionInput): Promise<Revision> {
  return db.transaction('rw', [db.clips, db.revisions], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    return appendRevisionRow(db, checkRevision(input, clip));
  });
}

/**
 * The raw append, for callers that validated inside their own transaction. The row keeps the id it
 * has or gets a new one (docs/sync.md "Row identity"); it is added without a read, so the editor's
 * write-only transaction stays one.
 */
export async function appendRevisionRow(db: SpocDb, input: RevisionInput): Promise<Revision> {
  // Copy without a stray `seq` so the auto-increment always assigns it: history is append-only.
  const { seq: _ignored, ...rest } = input as RevisionInput & { seq?: number };
  const row = withRowId(rest);
  const seq = await db.revisions.add(row);
  return { ...row, seq };
}

/** One revision by its id (the identity other machines know it by), or undefined. */
export async function revisionById(db: SpocDb, id: string): Promise<Revision | undefined> {
  return db.revisions.get({ id });
}

/** History of one layer, oldest first: the order undo and replay need. */
export async function listRevisions(
  db: SpocDb,
  clipId: string,
  source: LayerSource,
  frameIndex: number,
): Promise<Revision[]> {
  const rows = await db.revisions.where('[clipId+source+frameIndex]').equals([clipId, source, frameIndex]).toArray();
  return rows.sort((a, b) => a.seq - b.seq);
}

/** History of a whole clip, oldest first (reviewer diffs, bundle export). */
export async function listClipRevisions(db: SpocDb, clipId: string): Promise<Revision[]> {
  const rows = await clipRevisions(db, clipId).toArray();
  return rows.sort((a, b) => a.seq - b.seq);
}
