/**
 * Relations in the editor (docs/objects.md "Relations in the editor"): every write keeps the frame's
 * relations, a change that takes an end object's place drops the relation in the same undo step,
 * and a contact answer is one undoable step whose revision carries the relations, so undo works in
 * a new session too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { createClipObject } from '../../store/objects';
import { createProject } from '../../store/projects';
import { commitClipImport } from '../../store/importCommit';
import type { Clip, ClipObject, LayerRelation } from '../../store/types';
import { freshDb, importDraft } from '../../testing/storeFixtures';
import { stroke } from '../../testing/sessionFixtures';
import { codecFor } from '../pixelCodec';
import { EditorSession } from './editorSession';

let db: SpocDb;
let clip: Clip;
let pan: ClipObject;
let hand: ClipObject;
beforeEach(async () => {
  db = await freshDb();
  const project = await createProject(db, { name: 'V', kind: 'objects' });
  clip = await commitClipImport(db, importDraft(project.id, 2, { layers: [] }));
  pan = await createClipObject(db, { clipId: clip.id, by: 'ann', name: 'pan' });
  hand = await createClipObject(db, { clipId: clip.id, by: 'ann', classId: 'hand:left' });
});
afterEach(() => db.close());

async function open(): Promise<EditorSession> {
  const project = await db.projects.get(clip.projectId);
  return EditorSession.open(db, clip, 'ann', 0, { codec: codecFor(project) });
}

/** A session with the hand painted on row 1 and the pan on row 3 of frame 0. */
async function painted(): Promise<EditorSession> {
  const s = await open();
  s.setBrushSize(1);
  s.setClass(s.slotOf(hand.id));
  stroke(s, 1.5);
  s.setClass(s.slotOf(pan.id));
  stroke(s, 3.5);
  await s.flush();
  return s;
}

async function storedRelations(): Promise<LayerRelation[] | undefined> {
  return (await getLayer(db, clip.id, 'gt', 0))?.relations;
}

const touching = (): LayerRelation => ({ type: 'contact', subjectId: hand.id, answer: 'contact', objectId: pan.id });

describe('relations in an objects session', () => {
  it('keeps a stored frame relation through a stroke that leaves both ends on the frame', async () => {
    const first = await painted();
    await first.close();
    const layer = (await getLayer(db, clip.id, 'gt', 0))!;
    await db.layers.put({ ...layer, relations: [touching()] });
    const s = await open();
    s.setBrushSize(1);
    s.setClass(s.slotOf(pan.id));
    stroke(s, 4.5);
    await s.flush();
    expect(await storedRelations()).toEqual([touching()]);
    await s.close();
  });

  it('sets a contact as one undoable step whose revision carries the relations', async () => {
    const s = await painted();
    expect(await s.setContact(0, hand.id, 'contact', pan.id)).toMatchObject({ status: 'applied' });
    await s.flush();
    expect(await storedRelations()).toEqual([touching()]);
    const revs = await listRevisions(db, clip.id, 'gt', 0);
    const last = revs[revs.length - 1];
    expect(last).toMatchObject({ action: 'contact:contact', box: { x: 0, y: 0, w: 1, h: 1 }, relationsBefore: [], relationsAfter: [touching()] });
    expect(s.snapshot.canUndo).toBe(true);
    await s.undo();
    await s.flush();
    expect(await storedRelations()).toBeUndefined();
    await s.redo();
    await s.flush();
    expect(await storedRelations()).toEqual([touching()]);
    // Another answer replaces the first: one answer per hand and frame.
    await s.setContact(0, hand.id, 'inconclusive');
    await s.flush();
    expect(await storedRelations()).toEqual([{ type: 'contact', subjectId: hand.id, answer: 'inconclusive' }]);
    await s.close();

    // A new session rebuilds the step from the log and undoes it.
    const again = await open();
    expect(again.relationsAt(0)).toEqual([{ type: 'contact', subjectId: hand.id, answer: 'inconclusive' }]);
    await again.undo();
    await again.flush();
    expect(await storedRelations()).toEqual([touching()]);
    await again.close();
  });

  it('refuses a contact whose ends are not on the frame, and a read-only session', async () => {
    const s = await painted();
    const other = await createClipObject(db, { clipId: clip.id, by: 'ann', name: 'knife' });
    expect(await s.setContact(0, hand.id, 'contact', other.id)).toMatchObject({ status: 'refused', reason: expect.stringMatching(/not on this frame/) });
    expect(await s.setContact(1, hand.id, 'no_contact')).toMatchObject({ status: 'refused', reason: expect.stringMatching(/not on this frame/) });
    s.setViewOnly('reviewing');
    expect(await s.setContact(0, hand.id, 'no_contact')).toMatchObject({ status: 'refused' });
    await s.close();
  });

  it('drops a relation whose object loses its place with the change that took it, and undo brings both back', async () => {
    const s = await painted();
    await s.setContact(0, hand.id, 'contact', pan.id);
    s.setClass(0); // the eraser value: the pan's row goes
    stroke(s, 3.5);
    await s.flush();
    const layer = (await getLayer(db, clip.id, 'gt', 0))!;
    expect(layer.objects!.map((o) => o.id)).toEqual([hand.id]);
    expect(layer.relations).toBeUndefined();
    const revs = await listRevisions(db, clip.id, 'gt', 0);
    expect(revs[revs.length - 1]).toMatchObject({ relationsBefore: [touching()], relationsAfter: [] });
    await s.undo();
    await s.flush();
    expect(await storedRelations()).toEqual([touching()]);
    await s.close();
  });

  it('marks an object exhaustive on the frame and clears the mark, keeping an object without pixels listed only while marked', async () => {
    const s = await painted();
    const other = await createClipObject(db, { clipId: clip.id, by: 'ann', name: 'knife' });
    expect(s.setExhaustive(pan.id, true).status).toBe('applied');
    expect(s.setExhaustive(other.id, true).status).toBe('applied');
    await s.flush();
    let layer = (await getLayer(db, clip.id, 'gt', 0))!;
    expect(layer.objects!.filter((o) => o.exhaustive).map((o) => o.id).sort()).toEqual([pan.id, other.id].sort());
    s.setExhaustive(other.id, false);
    s.setExhaustive(pan.id, false);
    await s.flush();
    layer = (await getLayer(db, clip.id, 'gt', 0))!;
    expect(layer.objects!.map((o) => [o.id, o.exhaustive ?? false])).toEqual([[hand.id, false], [pan.id, false]]);
    await s.close();
  });
});
