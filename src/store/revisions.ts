import type { SpocDb } from './db';
import { notFound } from './errors';
import { clipRevisions } from './keys';
import type { LayerSource, Revision, RevisionInput } from './types';
import { checkRevision } from './validate';

/**
 * Appends one revision on its own (e.g. a reviewer's note-only correction record). Edits that also
 * change the layer must use saveLayerEdit, which writes both in one transaction.
 * Returns the revision with its `seq`.
 */
export async function appendRevision(db: SpocDb, input: RevisionInput): Promise<Revision> {
  return db.transaction('rw', [db.clips, db.revisions], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    const row = checkRevision(input, clip);
    const seq = await appendRevisionRow(db, row);
    return { ...row, seq };
  });
}

/** The raw append, for callers that validated inside their own transaction. */
export async function appendRevisionRow(db: SpocDb, input: RevisionInput): Promise<number> {
  // Copy without a stray `seq` so the auto-increment always assigns it: history is append-only.
  const { seq: _ignored, ...row } = input as RevisionInput & { seq?: number };
  return db.revisions.add(row);
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
