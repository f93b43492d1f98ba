/**
 * Painting objects (docs/objects.md "In the editor"): in an objects project the session paints the
 * active object's slot, stores each object's pixels and owner revisions, and a new session (new
 * slots) reads the same owners back and undoes through the log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { createClipObject } from '../../store/objects';
import { createProject } from '../../store/projects';
import { commitClipImport } from '../../store/importCommit';
import type { Clip, ClipObject } from '../../store/types';
import { decodeRle } from '../../masks/rle';
import type { CocoRle } from '../../masks/rle';
import { freshDb, importDraft, W } from '../../testing/storeFixtures';
import { stroke } from '../../testing/sessionFixtures';
import { codecFor, UNASSIGNED } from '../pixelCodec';
import { recoverGestureDrafts } from './recoverGestures';
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

/** Which pixels of row y object `id` owns on frame 0, as stored. */
async function ownedRow(id: string, y: number): Promise<number[]> {
  const layer = await getLayer(db, clip.id, 'gt', 0);
  const o = layer?.objects?.find((x) => x.id === id);
  if (!o) return [];
  const px = decodeRle(o.rle as CocoRle);
  return Array.from({ length: W }, (_, x) => px[y * W + x]);
}

describe('an objects session', () => {
  it('paints the active object, gives pixels from one object to another, and stores owners and history', async () => {
    const s = await open();
    expect(s.codec.kind).toBe('objects');
    s.setBrushSize(1);
    s.toggleProtect(); // off: the hand takes the pan's pixels
    s.setClass(s.slotOf(pan.id));
    stroke(s, 1.5);
    s.setClass(s.slotOf(hand.id));
    s.pointerDown({ x: 0.5, y: 1.5, button: 0, shift: false, alt: false });
    s.pointerMove({ x: 2.5, y: 1.5, button: 0, shift: false, alt: false });
    s.pointerUp({ x: 2.5, y: 1.5, button: 0, shift: false, alt: false });
    await s.flush();
    expect(await ownedRow(pan.id, 1)).toEqual([0, 0, 0, 1, 1, 1, 1, 1]);
    expect(await ownedRow(hand.id, 1)).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    const layer = (await getLayer(db, clip.id, 'gt', 0))!;
    expect([layer.actArea, layer.trfArea]).toEqual([8, 0]);
    const revs = await listRevisions(db, clip.id, 'gt', 0);
    expect(revs.map((r) => [r.objectsBefore?.map((o) => o.id), r.objectsAfter?.map((o) => o.id)])).toEqual([
      [[], [pan.id]],
      [[pan.id], [hand.id]],
    ]);
    await s.close();
  });

  it('reads owners back in a new session under its own slots, and undoes the last stroke from the log', async () => {
    const first = await open();
    first.setBrushSize(1);
    first.setClass(first.slotOf(hand.id)); // the hand takes slot 1 in this session
    stroke(first, 2.5);
    first.setClass(first.slotOf(pan.id));
    stroke(first, 3.5);
    await first.flush();
    await first.close();

    const second = await open();
    second.slotOf(pan.id); // the pan takes slot 1 here: slots are the session's own
    await second.undo();
    await second.flush();
    expect(await ownedRow(pan.id, 3)).toEqual([]);
    expect(await ownedRow(hand.id, 2)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(second.map.data[2 * W]).toBe(second.slotOf(hand.id));
    await second.close();
  });

  it('erases owners with class 0, and keeps an annotated pixel no object owns as unassigned', async () => {
    const s = await open();
    s.setBrushSize(1);
    s.setClass(s.slotOf(pan.id));
    stroke(s, 0.5);
    s.setClass(0);
    s.pointerDown({ x: 0.5, y: 0.5, button: 0, shift: false, alt: false });
    s.pointerUp({ x: 0.5, y: 0.5, button: 0, shift: false, alt: false });
    await s.flush();
    expect(await ownedRow(pan.id, 0)).toEqual([0, 1, 1, 1, 1, 1, 1, 1]);
    await s.close();
    // A layer with state pixels and no objects (imported before objects): read as unassigned.
    const codec = codecFor(await db.projects.get(clip.projectId));
    const layer = await getLayer(db, clip.id, 'gt', 0);
    const map = codec.mapOf({ ...layer!, objects: [] }, clip.width, clip.height);
    expect(map.data[1]).toBe(UNASSIGNED);
  });

  it('recovers a stroke cut off by a crash onto the object it named, whatever the slots', async () => {
    const s = await open();
    s.setBrushSize(1);
    s.slotOf(pan.id);
    s.setClass(s.slotOf(hand.id)); // slot 2 in this session
    s.pointerDown({ x: 0.5, y: 4.5, button: 0, shift: false, alt: false });
    s.pointerMove({ x: 3.5, y: 4.5, button: 0, shift: false, alt: false });
    await s.draftsWritten();
    // The browser dies here: no pointer-up, no commit; the draft rows are in the store.
    const recovered = await recoverGestureDrafts(db);
    expect(recovered.map((r) => r.outcome)).toEqual(['saved']);
    expect(await ownedRow(hand.id, 4)).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
    expect(await ownedRow(pan.id, 4)).toEqual([]);
  });

  it("never changes a locked object's pixels: not by painting over, erasing or painting with it, nor in a stroke recovered after a crash", async () => {
    const s = await open();
    s.setBrushSize(1);
    s.toggleProtect(); // off: without the lock the hand would take the pan's pixels
    s.setClass(s.slotOf(pan.id));
    stroke(s, 1.5);
    s.setLockedObjects([pan.id]);
    expect(s.snapshot.lockedObjects).toEqual([pan.id]);
    s.setClass(s.slotOf(hand.id));
    stroke(s, 1.5);
    s.setClass(0);
    stroke(s, 1.5);
    s.setClass(s.slotOf(pan.id));
    stroke(s, 2.5);
    await s.flush();
    expect(await ownedRow(pan.id, 1)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(await ownedRow(pan.id, 2)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(await ownedRow(hand.id, 1)).toEqual([]);
    // A crash mid-stroke: the draft names the locked object, so the replay leaves it too.
    s.setClass(s.slotOf(hand.id));
    s.pointerDown({ x: 0.5, y: 1.5, button: 0, shift: false, alt: false });
    s.pointerMove({ x: 3.5, y: 1.5, button: 0, shift: false, alt: false });
    await s.draftsWritten();
    expect((await recoverGestureDrafts(db)).map((r) => r.outcome)).toEqual(['dropped']);
    expect(await ownedRow(pan.id, 1)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    s.setLockedObjects([]);
    stroke(s, 1.5);
    await s.flush();
    expect(await ownedRow(hand.id, 1)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    await s.close();
  });
});
