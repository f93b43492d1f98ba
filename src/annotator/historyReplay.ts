/**
 * Rebuilding undo/redo after a reload from the append-only revision log of one frame.
 *
 * The scheme: every change is appended as a revision, including undo and redo themselves.
 *   - an edit (brush, fill, clear, ...) is stored with its own action name;
 *   - undoing edit E appends the inverse of E (before and after swapped) with action `undo:<E.action>`;
 *   - redoing E appends E again with action `redo:<E.action>`.
 * The log therefore stays append-only, the stored layer always equals the replay of all revisions,
 * and a reviewer's diff or a crash recovery needs no special case for undo.
 *
 * Replaying the log through the same stack moves as the live session rebuilds the stacks:
 *   edit       -> push on undo, clear redo
 *   undo:<a>   -> pop undo onto redo
 *   redo:<a>   -> pop redo onto undo
 * Undo revisions refer to their edit by position (the top of the stack) rather than by seq,
 * because the seq is assigned by the database after the write-behind queue has written the edit,
 * and an undo may come before that. Each undo/redo revision is checked against the entry it pops:
 * same box and the same RLEs (inverted for undo). A revision that does not fit — a log written by
 * two tabs at once, or a truncated one — is replayed as a plain edit. That is always pixel-correct,
 * because every revision records the pixels it really replaced, so undo can never corrupt a mask;
 * at worst the stacks differ from the ones the user had.
 */
import type { LayerRelation, Rle, RevisionObject } from '../store/types';
import { sameRelations } from '../objects/relations';
import type { RevisionPixels } from './revisionPatch';

/** A stored revision as the replay needs it (store `Revision` rows fit). */
export interface LoggedRevision extends RevisionPixels {
  seq: number;
}

export interface ReplayEntry {
  revision: LoggedRevision;
  /** Order of the last stack move, as in a live session: larger is more recent. */
  touched: number;
}

export interface ReplayResult {
  /** Bottom (oldest) first; the last entry is the next undo. Entries are the original edits. */
  undo: ReplayEntry[];
  /** Bottom first; the last entry is the next redo. */
  redo: ReplayEntry[];
  /** undo:/redo: revisions that did not fit the stacks and were replayed as edits. */
  mismatched: number;
}

export const UNDO_PREFIX = 'undo:';
export const REDO_PREFIX = 'redo:';

/** Replays one frame's revisions (any order; sorted by seq here). */
export function replayRevisions(revisions: readonly LoggedRevision[]): ReplayResult {
  const sorted = revisions.slice().sort((a, b) => a.seq - b.seq);
  const undo: ReplayEntry[] = [];
  let redo: ReplayEntry[] = [];
  let mismatched = 0;
  let clock = 0;
  for (const rev of sorted) {
    if (rev.action.startsWith(UNDO_PREFIX)) {
      const top = undo[undo.length - 1];
      if (top && sameChange(rev, top.revision, true)) {
        undo.pop();
        redo.push({ revision: top.revision, touched: ++clock });
        continue;
      }
      mismatched++;
    } else if (rev.action.startsWith(REDO_PREFIX)) {
      const top = redo[redo.length - 1];
      if (top && sameChange(rev, top.revision, false)) {
        redo.pop();
        undo.push({ revision: top.revision, touched: ++clock });
        continue;
      }
      mismatched++;
    }
    undo.push({ revision: rev, touched: ++clock });
    redo = [];
  }
  return { undo, redo, mismatched };
}

/** Whether `rev` records the change of `edit` (or its inverse). RLEs are canonical: equal masks, equal strings. */
function sameChange(rev: RevisionPixels, edit: RevisionPixels, inverted: boolean): boolean {
  const a = rev.box;
  const b = edit.box;
  if (a.x !== b.x || a.y !== b.y || a.w !== b.w || a.h !== b.h) return false;
  const [before, beforeTrf, after, afterTrf] = inverted
    ? [edit.after, edit.afterTrf, edit.before, edit.beforeTrf]
    : [edit.before, edit.beforeTrf, edit.after, edit.afterTrf];
  const [objectsBefore, objectsAfter] = inverted ? [edit.objectsAfter, edit.objectsBefore] : [edit.objectsBefore, edit.objectsAfter];
  const [relationsBefore, relationsAfter] = inverted ? [edit.relationsAfter, edit.relationsBefore] : [edit.relationsBefore, edit.relationsAfter];
  return (
    sameRle(rev.before, before) && sameRle(rev.after, after) && sameRle(rev.beforeTrf, beforeTrf) && sameRle(rev.afterTrf, afterTrf) &&
    sameOwners(rev.objectsBefore, objectsBefore) && sameOwners(rev.objectsAfter, objectsAfter) &&
    sameRelationList(rev.relationsBefore, relationsBefore) && sameRelationList(rev.relationsAfter, relationsAfter)
  );
}

/** Owners as revisions list them: the same objects, each with the same pixels (any order). */
function sameOwners(a: readonly RevisionObject[] | undefined, b: readonly RevisionObject[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  const byId = new Map(b.map((o) => [o.id, o.rle]));
  return a.every((o) => sameRle(o.rle, byId.get(o.id)));
}

/** Relation lists as revisions carry them (both absent: the step left the relations). */
function sameRelationList(a: readonly LayerRelation[] | undefined, b: readonly LayerRelation[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameRelations(a, b);
}

function sameRle(a: Rle | undefined, b: Rle | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.counts === b.counts && a.size[0] === b.size[0] && a.size[1] === b.size[1];
}
