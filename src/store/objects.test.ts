import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { createClipObject, listClipObjects, removeClipObject, updateClipObject } from './objects';
import { createProject, updateProject } from './projects';
import { RecordCheck, checkClipObject, checkLayer, checkRevision } from './records';
import { H, W, freshDb, importDraft, rleFromPicture, rleWithArea, storeRejection } from '../testing/storeFixtures';
import type { Clip, Project } from './types';
import { defaultLabelSchema } from '../objects/labelSchema';

let db: SpocDb;
let spoc: Project;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  spoc = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(spoc.id));
});
afterEach(() => db.close());

/** Pictures of the 8x6 test frame: '#' marks the pixels. */
const pic = (...rows: string[]) => rleFromPicture(rows);
const EMPTY = rleWithArea(H, W, 0);
const provenance = { kind: 'manual', by: 'ann', at: 1 };

describe('project kinds and schemas', () => {
  it('keeps projects made without a kind schema-less (SPOC as before), and gives objects projects the hands', async () => {
    expect(spoc.labels).toBeUndefined();
    const visor = await createProject(db, { name: 'V', kind: 'objects' });
    expect(visor.labels).toEqual(defaultLabelSchema('objects'));
    expect((await db.projects.get(visor.id))?.labels?.classes).toHaveLength(4);
  });

  it('checks a new schema, and refuses one that changes the kind or breaks a rule, leaving the row as it was', async () => {
    const visor = await createProject(db, { name: 'V', kind: 'objects' });
    const schema = { kind: 'objects' as const, classes: [...visor.labels!.classes, { id: 'knife', name: 'knife', colour: '#123456', attributes: [] }] };
    expect((await updateProject(db, visor.id, { labels: schema })).labels?.classes).toHaveLength(5);
    const kind = await storeRejection(updateProject(db, visor.id, { labels: { kind: 'spoc', classes: [] } }));
    expect(kind.message).toMatch(/is a objects project; its label schema cannot make it a spoc project/);
    const bad = await storeRejection(updateProject(db, visor.id, { labels: { ...schema, classes: [...schema.classes, { id: 'knife', name: 'other', colour: '#123456', attributes: [] }] } }));
    expect(bad.message).toMatch(/labels\.classes\[5\]\.id repeats "knife"/);
    expect((await db.projects.get(visor.id))?.labels?.classes).toHaveLength(5);
  });
});

describe('clip objects', () => {
  it('numbers objects per clip and names them after their class', async () => {
    const visor = await createProject(db, { name: 'V', kind: 'objects' });
    const vclip = await commitClipImport(db, importDraft(visor.id));
    const a = await createClipObject(db, { clipId: vclip.id, by: 'ann', classId: 'hand:left' });
    const b = await createClipObject(db, { clipId: vclip.id, by: 'ann', name: '  the pan  ' });
    expect([a.number, a.name, b.number, b.name]).toEqual([1, 'left hand 1', 2, 'the pan']);
    expect(a.id).not.toBe(b.id);
    const none = await storeRejection(createClipObject(db, { clipId: vclip.id, by: 'ann', classId: 'zebra' }));
    expect(none.message).toMatch(/The project has no class "zebra"/);
  });

  it('renames, reclasses and checks attribute values against the class', async () => {
    const visor = await createProject(db, { name: 'V', kind: 'objects' });
    await updateProject(db, visor.id, {
      labels: { kind: 'objects', classes: [{ id: 'pan', name: 'pan', colour: '#101010', attributes: [{ id: 'hot', name: 'hot', kind: 'boolean' }, { id: 'size', name: 'size', kind: 'choice', options: ['small', 'big'] }] }] },
    });
    const vclip = await commitClipImport(db, importDraft(visor.id));
    const o = await createClipObject(db, { clipId: vclip.id, by: 'ann', classId: 'pan', attributes: { hot: true } });
    const renamed = await updateClipObject(db, o.id, { name: 'big pan', attributes: { hot: false, size: 'big' } }, 50);
    expect(renamed).toMatchObject({ name: 'big pan', classId: 'pan', attributes: { hot: false, size: 'big' }, updatedAt: 50 });
    expect((await storeRejection(updateClipObject(db, o.id, { attributes: { size: 'huge' } }))).message).toMatch(/"huge" does not fit the choice attribute "size" \(one of small, big\)/);
    expect((await storeRejection(updateClipObject(db, o.id, { attributes: { colour: 'red' } }))).message).toMatch(/no attribute "colour"/);
    const classless = await updateClipObject(db, o.id, { classId: null });
    expect(classless.classId).toBeUndefined();
    expect(classless.attributes).toBeUndefined();
    expect((await db.objects.get(o.id))?.name).toBe('big pan');
  });

  it("keeps on a reclass only the values that fit the new class's attributes", async () => {
    const visor = await createProject(db, { name: 'V', kind: 'objects' });
    const hot = { id: 'hot', name: 'hot', kind: 'boolean' as const };
    await updateProject(db, visor.id, {
      labels: {
        kind: 'objects',
        classes: [
          { id: 'pan', name: 'pan', colour: '#101010', attributes: [hot, { id: 'size', name: 'size', kind: 'choice', options: ['small', 'big'] }] },
          { id: 'pot', name: 'pot', colour: '#202020', attributes: [hot, { id: 'size', name: 'size', kind: 'choice', options: ['tall', 'short'] }] },
        ],
      },
    });
    const vclip = await commitClipImport(db, importDraft(visor.id));
    const o = await createClipObject(db, { clipId: vclip.id, by: 'ann', classId: 'pan', attributes: { hot: true, size: 'big' } });
    const pot = await updateClipObject(db, o.id, { classId: 'pot' });
    expect(pot.attributes).toEqual({ hot: true });
    // The values left are the new class's: editing them goes on being checked against it.
    expect((await updateClipObject(db, o.id, { attributes: { hot: true, size: 'tall' } })).attributes).toEqual({ hot: true, size: 'tall' });
  });

  it('removes an object by marking it, lists it only when asked, and restores it', async () => {
    const o = await createClipObject(db, { clipId: clip.id, by: 'ann' });
    await removeClipObject(db, o.id, 9);
    expect(await listClipObjects(db, clip.id)).toEqual([]);
    expect((await listClipObjects(db, clip.id, true))[0]).toMatchObject({ id: o.id, deletedAt: 9 });
    await removeClipObject(db, o.id, 10, true);
    expect((await listClipObjects(db, clip.id))[0].deletedAt).toBeUndefined();
    // The next number goes past removed objects: numbers are never reused within a clip.
    expect((await createClipObject(db, { clipId: clip.id, by: 'ann' })).number).toBe(2);
  });

  it('refuses an object row of another clip, a bad number and an unknown field of a stored row', () => {
    const row = { id: 'o1', clipId: clip.id, number: 1, name: 'o', createdAt: 1, createdBy: 'ann', updatedAt: 1 };
    expect(checkClipObject(new RecordCheck('The object'), row, '', clip, 'stored')).toEqual(row);
    expect(() => checkClipObject(new RecordCheck('The object'), { ...row, clipId: 'other' }, '', clip, 'stored')).toThrow(/clipId is "other", not this clip/);
    expect(() => checkClipObject(new RecordCheck('The object'), { ...row, number: 0 }, '', clip, 'stored')).toThrow(/number/);
    expect(() => checkClipObject(new RecordCheck('The object'), { ...row, colour: 'red' }, '', clip, 'stored')).toThrow(/colour/);
  });
});

describe('objects on a layer', () => {
  const layer = (objects: unknown, act = pic('##......', '##......', '........', '........', '......##', '......##'), trf = EMPTY) => ({
    clipId: clip.id, frameIndex: 0, source: 'gt', act, trf, provenance, objects,
  });
  const check = (row: unknown) => checkLayer(new RecordCheck('The layer'), row, '', clip, 'input', 1);

  it('keeps disjoint objects inside the states, with their areas, presence, keyframe and provenance', () => {
    const a = pic('##......', '##......', '........', '........', '........', '........');
    const b = pic('........', '........', '........', '........', '......##', '......#.');
    const row = check(layer([
      { id: 'a', rle: a, keyframe: true },
      { id: 'b', rle: b, presence: 'occluded', provenance: { kind: 'propagated', by: 'tracker', at: 2, confidence: 0.7 } },
      { id: 'c', rle: EMPTY, presence: 'out_of_view' },
    ]));
    expect(row.objects?.map((o) => [o.id, o.area, o.presence, o.keyframe])).toEqual([['a', 4, undefined, true], ['b', 3, 'occluded', undefined], ['c', 0, 'out_of_view', undefined]]);
  });

  it.each([
    ['two objects on one pixel', [{ id: 'a', rle: pic('##......', '........', '........', '........', '........', '........') }, { id: 'b', rle: pic('.#......', '........', '........', '........', '........', '........') }], /objects a and b both own pixel \(1, 0\)/],
    ['a pixel with no state', [{ id: 'a', rle: pic('...#....', '........', '........', '........', '........', '........') }], /objects\[0\]\.rle owns pixel \(3, 0\) that is neither actionable nor transformed/],
    ['a repeated id', [{ id: 'a', rle: EMPTY }, { id: 'a', rle: EMPTY }], /objects\[1\]\.id repeats object a/],
    ['a mask of another size', [{ id: 'a', rle: rleWithArea(H + 1, W, 0) }], /objects\[0\]\.rle is 8x7 but must be 8x6/],
    ['pixels on an absent object', [{ id: 'a', rle: pic('#.......', '........', '........', '........', '........', '........'), presence: 'absent' }], /presence is absent but the object has 1 pixels/],
    ['an unknown presence', [{ id: 'a', rle: EMPTY, presence: 'gone' }], /presence/],
  ])('refuses %s', (_, objects, message) => {
    expect(() => check(layer(objects))).toThrow(message);
  });

  it('counts transformed pixels as a state an object may own', () => {
    const trf = pic('........', '........', '..#.....', '........', '........', '........');
    const row = check(layer([{ id: 'a', rle: trf }], EMPTY, trf));
    expect(row.objects?.[0].area).toBe(1);
  });

  describe('relations', () => {
    const hand = { id: 'hand', rle: pic('##......', '##......', '........', '........', '........', '........') };
    const knife = { id: 'knife', rle: pic('........', '........', '........', '........', '......##', '......##') };
    const withRelations = (relations: unknown) => ({ ...layer([hand, knife]), relations });

    it("keeps a hand's contact answer naming an object on the frame, and the answers that name none", () => {
      const row = check(withRelations([
        { type: 'contact', subjectId: 'hand', answer: 'contact', objectId: 'knife' },
        { type: 'contact', subjectId: 'knife', answer: 'inconclusive', provenance: { kind: 'propagated', by: 'model', at: 3, confidence: 0.4 } },
      ]));
      expect(row.relations?.map((r) => [r.subjectId, r.answer, r.objectId, r.provenance?.confidence])).toEqual([['hand', 'contact', 'knife', undefined], ['knife', 'inconclusive', undefined, 0.4]]);
    });

    it.each([
      ['a subject not on the frame', [{ type: 'contact', subjectId: 'spoon', answer: 'no_contact' }], /relations\[0\]\.subjectId names object spoon, which is not among the frame's objects/],
      ['a contacted object not on the frame', [{ type: 'contact', subjectId: 'hand', answer: 'contact', objectId: 'pan' }], /relations\[0\]\.objectId names object pan/],
      ['a contact with no object', [{ type: 'contact', subjectId: 'hand', answer: 'contact' }], /relations\[0\]\.objectId is missing/],
      ['an object with a no-contact answer', [{ type: 'contact', subjectId: 'hand', answer: 'no_contact', objectId: 'knife' }], /objectId must be absent when the answer is no_contact/],
      ['a hand touching itself', [{ type: 'contact', subjectId: 'hand', answer: 'contact', objectId: 'hand' }], /names the subject itself/],
      ['two answers for one hand', [{ type: 'contact', subjectId: 'hand', answer: 'no_contact' }, { type: 'contact', subjectId: 'hand', answer: 'inconclusive' }], /relations\[1\]\.subjectId has a second contact relation/],
      ['an unknown answer', [{ type: 'contact', subjectId: 'hand', answer: 'maybe' }], /relations\[0\]\.answer/],
      ['an unknown type', [{ type: 'holds', subjectId: 'hand', answer: 'no_contact' }], /relations\[0\]\.type/],
    ])('refuses %s', (_, relations, message) => {
      expect(() => check(withRelations(relations))).toThrow(message);
    });
  });

  it("checks a revision's owners: both sides or neither, box-sized, disjoint", () => {
    const box = { x: 0, y: 0, w: 2, h: 2 };
    const two = rleFromPicture(['##', '..']);
    const base = { clipId: clip.id, frameIndex: 0, source: 'gt', author: 'ann', at: 1, action: 'brush', box, before: two, after: two };
    const c = () => new RecordCheck('The revision');
    expect(checkRevision(c(), { ...base, objectsBefore: [], objectsAfter: [{ id: 'a', rle: two }] }, '', clip, 'input')).toMatchObject({ objectsBefore: [], objectsAfter: [{ id: 'a' }] });
    expect(() => checkRevision(c(), { ...base, objectsAfter: [{ id: 'a', rle: two }] }, '', clip, 'input')).toThrow(/objectsAfter without objectsBefore/);
    expect(() => checkRevision(c(), { ...base, objectsBefore: [{ id: 'a', rle: pic('##') }], objectsAfter: [] }, '', clip, 'input')).toThrow(/objectsBefore\[0\]\.rle is 2x1 but must be 2x2/);
    expect(() => checkRevision(c(), { ...base, objectsBefore: [], objectsAfter: [{ id: 'a', rle: two }, { id: 'b', rle: two }] }, '', clip, 'input')).toThrow(/objects a and b both own pixel/);
  });

  it("checks a revision's relations: both sides or neither, each a well-formed relation list", () => {
    const box = { x: 0, y: 0, w: 1, h: 1 };
    const one = rleFromPicture(['#']);
    const base = { clipId: clip.id, frameIndex: 0, source: 'gt', author: 'ann', at: 1, action: 'contact:contact', box, before: one, after: one };
    const c = () => new RecordCheck('The revision');
    const touch = { type: 'contact', subjectId: 'hand', answer: 'contact', objectId: 'pan' };
    expect(checkRevision(c(), { ...base, relationsBefore: [], relationsAfter: [touch] }, '', clip, 'input')).toMatchObject({ relationsBefore: [], relationsAfter: [touch] });
    expect(() => checkRevision(c(), { ...base, relationsAfter: [touch] }, '', clip, 'input')).toThrow(/relationsAfter without relationsBefore/);
    expect(() => checkRevision(c(), { ...base, relationsBefore: [{ ...touch, objectId: undefined }], relationsAfter: [] }, '', clip, 'input')).toThrow(/relationsBefore\[0\]\.objectId is missing/);
    expect(() => checkRevision(c(), { ...base, relationsBefore: [], relationsAfter: [touch, { type: 'contact', subjectId: 'hand', answer: 'no_contact' }] }, '', clip, 'stored')).toThrow();
  });
});
