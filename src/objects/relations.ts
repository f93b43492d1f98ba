/**
 * Relations between a frame's objects as the editor changes them (docs/objects.md "Relations"):
 * VISOR's hand–object contact, one answer per hand and frame. Pure: the session applies what these
 * return as one undoable step, and the store checks the result again (store/records/relations.ts).
 *
 * Gloves: a glove worn on a hand counts as that hand (VISOR). The glove is its own object of a glove
 * class, and the contact belongs to it; "which hand" is read through the class's `hand.side`
 * (`handOf`), so a left glove answers for the left hand.
 */
import type { ContactAnswer, LayerObject, LayerRelation } from '../store/types';
import type { HandRole, LabelSchema } from './labelSchema';

/** How each answer reads in the app. */
export const CONTACT_ANSWER_LABELS: Readonly<Record<ContactAnswer, string>> = {
  contact: 'in contact',
  no_contact: 'no contact',
  none_of_the_above: 'none of the above',
  inconclusive: 'inconclusive',
};

/** The hand an object of class `classId` is (a glove: the hand wearing it), or null when it is not a hand. */
export function handOf(schema: LabelSchema, classId: string | undefined): HandRole | null {
  if (classId === undefined) return null;
  return schema.classes.find((c) => c.id === classId)?.hand ?? null;
}

/** "left hand", "right hand (glove)": the hand a subject answers for. */
export function handName(role: HandRole): string {
  return `${role.side} hand${role.glove ? ' (glove)' : ''}`;
}

/** The contact relation of `subjectId` on the frame, if it has one. */
export function contactOf(relations: readonly LayerRelation[], subjectId: string): LayerRelation | undefined {
  return relations.find((r) => r.type === 'contact' && r.subjectId === subjectId);
}

/** One order for a frame's relations (by type, then subject), so equal sets compare and store equal. */
export function sortRelations(relations: readonly LayerRelation[]): LayerRelation[] {
  const key = (r: LayerRelation) => `${r.type}\u0000${r.subjectId}`;
  return relations.slice().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Whether two relation lists say the same (any order). */
export function sameRelations(a: readonly LayerRelation[], b: readonly LayerRelation[]): boolean {
  if (a.length !== b.length) return false;
  return JSON.stringify(sortRelations(a)) === JSON.stringify(sortRelations(b));
}

/**
 * The relations that still hold once the frame's objects are `objects`: a relation whose subject or
 * object is no longer listed on the frame (its pixels were erased and no fact keeps it there) is
 * dropped, as the store would refuse it. Dropping rather than refusing the edit keeps every paint
 * tool working as before; the drop is part of the same undo step, so undo brings the relation back.
 */
export function relationsOnFrame(relations: readonly LayerRelation[], objects: readonly Pick<LayerObject, 'id'>[]): LayerRelation[] {
  const onFrame = new Set(objects.map((o) => o.id));
  return relations.filter((r) => onFrame.has(r.subjectId) && (r.objectId === undefined || onFrame.has(r.objectId)));
}

export type ContactChange = { relations: LayerRelation[] } | { refused: string };

/**
 * The frame's relations with hand `subjectId`'s contact answer set to `answer` (touching `objectId`
 * when the answer is `contact`), replacing its earlier answer; `null` clears the answer. Refused
 * when an end is not on the frame, or the subject touches itself.
 */
export function withContact(
  relations: readonly LayerRelation[],
  objects: readonly Pick<LayerObject, 'id'>[],
  subjectId: string,
  answer: ContactAnswer | null,
  objectId?: string,
): ContactChange {
  const onFrame = new Set(objects.map((o) => o.id));
  const others = relations.filter((r) => !(r.type === 'contact' && r.subjectId === subjectId));
  if (answer === null) return { relations: sortRelations(others) };
  if (!onFrame.has(subjectId)) return { refused: 'the hand is not on this frame: paint it first' };
  if (answer === 'contact') {
    if (objectId === undefined) return { refused: 'a contact names the object touched' };
    if (objectId === subjectId) return { refused: 'a hand cannot be in contact with itself' };
    if (!onFrame.has(objectId)) return { refused: 'the object touched is not on this frame: paint it first' };
    return { relations: sortRelations([...others, { type: 'contact', subjectId, answer, objectId }]) };
  }
  return { relations: sortRelations([...others, { type: 'contact', subjectId, answer }]) };
}
