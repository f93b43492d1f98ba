/**
 * A layer's relations (types.ts LayerRelation, docs/objects.md "Relations"): typed links between
 * the frame's objects. Checked against the layer's own object list, so a relation never names an
 * object that is not on its frame; which objects may be subjects (hands) is the schema's business
 * and is checked by the app, which knows the project.
 */
import { CONTACT_ANSWERS, RELATION_TYPES, type LayerObject, type LayerRelation } from '../types';
import type { RecordCheck } from './check';
import { checkProvenance } from './layer';

const RELATION_FIELDS = new Set(['type', 'subjectId', 'answer', 'objectId', 'provenance']);
/** Far above any real frame (VISOR: two hands); bounds what a hostile file can make us check. */
const MAX_RELATIONS = 10_000;

export function checkLayerRelations(c: RecordCheck, v: unknown, path: string, objects: readonly LayerObject[], stored: boolean): LayerRelation[] {
  return checkRelationList(c, v, path, new Set(objects.map((o) => o.id)), stored);
}

/**
 * A revision's `relationsBefore` / `relationsAfter`: the frame's whole relation list on each side of
 * a step (docs/objects.md "Relations in the editor"). Checked as a layer's are, except that the ends
 * are not checked against objects: the revision does not carry the frame's object list.
 */
export function checkRevisionRelations(c: RecordCheck, v: unknown, path: string, stored: boolean): LayerRelation[] {
  return checkRelationList(c, v, path, null, stored);
}

/** `onFrame`: the ids a relation's ends must be among, or null to leave that to the caller. */
function checkRelationList(c: RecordCheck, v: unknown, path: string, onFrame: ReadonlySet<string> | null, stored: boolean): LayerRelation[] {
  const subjects = new Set<string>();
  return c.array(v, path, MAX_RELATIONS).map((item, i): LayerRelation => {
    const p = c.at(path, i);
    const o = c.object(item, p);
    if (stored) c.strictFields(o, RELATION_FIELDS, p);
    const type = c.oneOf(c.required(o, 'type', p), c.at(p, 'type'), RELATION_TYPES);
    const subjectId = c.nonEmptyString(c.required(o, 'subjectId', p), c.at(p, 'subjectId'), 64);
    if (onFrame && !onFrame.has(subjectId)) c.fail(c.at(p, 'subjectId'), `names object ${subjectId}, which is not among the frame's objects`);
    const key = `${type}\u0000${subjectId}`;
    if (subjects.has(key)) c.fail(c.at(p, 'subjectId'), `has a second ${type} relation on this frame (one per subject)`);
    subjects.add(key);
    const answer = c.oneOf(c.required(o, 'answer', p), c.at(p, 'answer'), CONTACT_ANSWERS);
    const out: LayerRelation = { type, subjectId, answer };
    const objectId = c.optional(o, 'objectId');
    if (answer === 'contact') {
      if (objectId === undefined) c.fail(c.at(p, 'objectId'), 'is missing; a contact answer names the object touched');
      const id = c.nonEmptyString(objectId, c.at(p, 'objectId'), 64);
      if (id === subjectId) c.fail(c.at(p, 'objectId'), 'names the subject itself');
      if (onFrame && !onFrame.has(id)) c.fail(c.at(p, 'objectId'), `names object ${id}, which is not among the frame's objects`);
      out.objectId = id;
    } else if (objectId !== undefined) {
      c.fail(c.at(p, 'objectId'), `must be absent when the answer is ${answer}`);
    }
    const provenance = c.optional(o, 'provenance');
    if (provenance !== undefined) out.provenance = checkProvenance(c, provenance, c.at(p, 'provenance'), stored);
    return out;
  });
}
