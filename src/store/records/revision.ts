/**
 * A revision row (types.ts Revision): the box of one layer that an edit changed, before and after.
 * The patches are RLEs of the box, so the box must lie inside the frame and the patches be its size.
 */
import type { Revision, RevisionInput } from '../types';
import type { RecordCheck } from './check';
import { checkRevisionObjects } from './objects';
import { checkRevisionRelations } from './relations';
import { box, frameIndexOf, layerSource, logRowId, maskArea, rle, sameClip, type ClipShape, type RowMode } from './masks';

const REVISION_FIELDS = new Set(['seq', 'id', 'clipId', 'frameIndex', 'source', 'author', 'at', 'action', 'box', 'before', 'after', 'beforeTrf', 'afterTrf', 'objectsBefore', 'objectsAfter', 'relationsBefore', 'relationsAfter']);
const PATCHES = ['before', 'after', 'beforeTrf', 'afterTrf'] as const;

/** An input revision (the store numbers it and, without one, gives it an id); `seq`, if the input has one, is not kept. */
export function checkRevision(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: 'input'): RevisionInput;
/** A stored revision, with its `seq` and `id`. */
export function checkRevision(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: 'stored'): Revision;
export function checkRevision(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: RowMode): RevisionInput | Revision {
  const stored = mode === 'stored';
  const o = c.object(v, path);
  if (stored) c.strictFields(o, REVISION_FIELDS, path);
  const seq = stored ? c.integer(c.required(o, 'seq', path), c.at(path, 'seq'), 1) : undefined;
  const id = logRowId(c, o, path, mode);
  const clipId = sameClip(c, o, path, clip);
  const frameIndex = frameIndexOf(c, c.required(o, 'frameIndex', path), c.at(path, 'frameIndex'), clip);
  const source = layerSource(c, c.required(o, 'source', path), c.at(path, 'source'));
  const author = c.nonEmptyString(c.required(o, 'author', path), c.at(path, 'author'), 1000);
  const at = c.number(c.required(o, 'at', path), c.at(path, 'at'));
  const action = c.nonEmptyString(c.required(o, 'action', path), c.at(path, 'action'), 1000);
  const b = box(c, c.required(o, 'box', path), c.at(path, 'box'), stored);
  if (b.x + b.w > clip.width || b.y + b.h > clip.height) {
    c.fail(path, `Revision box ${b.w}x${b.h} at (${b.x}, ${b.y}) is not inside the ${clip.width}x${clip.height} frame`);
  }
  const patches: Partial<Pick<RevisionInput, (typeof PATCHES)[number]>> = {};
  for (const key of PATCHES) {
    const raw = key === 'before' || key === 'after' ? c.required(o, key, path) : c.optional(o, key);
    if (raw === undefined) continue;
    const patch = rle(c, raw, c.at(path, key), stored);
    maskArea(c, patch, c.at(path, key), b.h, b.w);
    patches[key] = patch;
  }
  const rev: RevisionInput = { ...(id === undefined ? {} : { id }), clipId, frameIndex, source, author, at, action, box: b, before: patches.before!, after: patches.after!, ...pick(patches) };
  const objectsBefore = c.optional(o, 'objectsBefore');
  const objectsAfter = c.optional(o, 'objectsAfter');
  if ((objectsBefore === undefined) !== (objectsAfter === undefined)) {
    c.fail(path, `has ${objectsBefore === undefined ? 'objectsAfter without objectsBefore' : 'objectsBefore without objectsAfter'}; a revision's owners come as both sides or neither`);
  }
  if (objectsBefore !== undefined) {
    rev.objectsBefore = checkRevisionObjects(c, objectsBefore, c.at(path, 'objectsBefore'), b, stored);
    rev.objectsAfter = checkRevisionObjects(c, objectsAfter, c.at(path, 'objectsAfter'), b, stored);
  }
  const relationsBefore = c.optional(o, 'relationsBefore');
  const relationsAfter = c.optional(o, 'relationsAfter');
  if ((relationsBefore === undefined) !== (relationsAfter === undefined)) {
    c.fail(path, `has ${relationsBefore === undefined ? 'relationsAfter without relationsBefore' : 'relationsBefore without relationsAfter'}; a revision's relations come as both sides or neither`);
  }
  if (relationsBefore !== undefined) {
    rev.relationsBefore = checkRevisionRelations(c, relationsBefore, c.at(path, 'relationsBefore'), stored);
    rev.relationsAfter = checkRevisionRelations(c, relationsAfter, c.at(path, 'relationsAfter'), stored);
  }
  return seq === undefined ? rev : { seq, ...rev, id: id! };
}

/** The optional patches that are present (an absent one is no key at all, as the store writes it). */
function pick(p: Partial<Pick<RevisionInput, 'beforeTrf' | 'afterTrf'>>): Partial<Pick<RevisionInput, 'beforeTrf' | 'afterTrf'>> {
  const out: Partial<Pick<RevisionInput, 'beforeTrf' | 'afterTrf'>> = {};
  if (p.beforeTrf) out.beforeTrf = p.beforeTrf;
  if (p.afterTrf) out.afterTrf = p.afterTrf;
  return out;
}
