import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UUID_PATTERN } from '../../store/ids';
import type { SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { trashClip } from '../../store/trash';
import { importDraft } from '../../testing/storeFixtures';
import { emptyClipStore, at } from '../../testing/sessionFixtures';
import type { Clip } from '../../store/types';
import { labelArea } from '../../masks/geometry';
import { EditorSession } from './editorSession';
import { recoverGestureDrafts } from './recoverGestures';

let db: SpocDb;
let clip: Clip;
let twin: Clip;
beforeEach(async () => {
  let projectId: string;
  ({ db, clip, projectId } = await emptyClipStore(4)); // 8x6 frames, no masks
  twin = await commitClipImport(db, { ...importDraft(projectId, 4, { layers: [] }), clip: { ...importDraft(projectId, 4).clip, name: 'twin' } });
});
afterEach(() => db.close());

/** Down and moves along row y, and the up only when asked: a stroke the browser cut off, or a finished one. */
async function drag(s: EditorSession, y: number, up: boolean) {
  s.pointerDown(at(0.5, y));
  s.pointerMove(at(3.5, y));
  s.pointerMove(at(6.5, y));
  if (up) s.pointerUp(at(6.5, y));
  await s.draftsWritten();
}

const draftRows = () => db.gestureDrafts.toArray();

async function openSession(c: Clip, author = 'ann') {
  const s = await EditorSession.open(db, c, author, 1);
  s.setBrushSize(1);
  return s;
}

describe('strokes in progress are written as they are drawn', () => {
  it('a finished stroke leaves no draft: its commit deletes the rows in the same transaction', async () => {
    const s = await openSession(clip);
    await drag(s, 2.5, true);
    await s.flush();
    expect(await draftRows()).toEqual([]);
    expect((await listRevisions(db, clip.id, 'gt', 1)).length).toBe(1);
    await s.close();
  });

  it('a stroke whose pointer-up never came leaves its input, with the settings it started with', async () => {
    const s = await openSession(clip);
    s.setClass(2);
    await drag(s, 2.5, false);
    const rows = await draftRows();
    expect(rows.map((r) => r.kind)).toEqual(['down', 'move', 'move']);
    expect(rows[0]!.start).toEqual({ tool: 'brush', activeClass: 2, protect: true, brushSize: 1, hitRadius: 6, author: 'ann' });
    expect(rows.every((r) => r.clipId === clip.id && r.frameIndex === 1)).toBe(true);
  });

  it('Escape drops the draft of the stroke it cancels', async () => {
    const s = await openSession(clip);
    await drag(s, 2.5, false);
    s.cancelGesture();
    await s.draftsWritten();
    expect(await draftRows()).toEqual([]);
    await s.close();
  });

  it('a read-only session writes no draft', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 1, { readOnly: true });
    await drag(s, 2.5, false);
    expect(await draftRows()).toEqual([]);
  });
});

describe('recoverGestureDrafts', () => {
  it('saves a cut-off stroke as the revision the finished stroke would have made, once', async () => {
    const cut = await openSession(clip);
    await drag(cut, 2.5, false); // the browser dies here: nothing but the draft reached the store
    const done = await openSession(twin);
    await drag(done, 2.5, true);
    await done.flush();

    const recovered = await recoverGestureDrafts(db);
    expect(recovered).toEqual([{ clipId: clip.id, clipName: clip.name, frameIndex: 1, tool: 'brush', outcome: 'saved' }]);
    expect(await draftRows()).toEqual([]);
    const [mine, theirs] = [await getLayer(db, clip.id, 'gt', 1), await getLayer(db, twin.id, 'gt', 1)];
    expect(mine!.act).toEqual(theirs!.act);
    expect(mine!.actArea).toBe(7);
    const [rev] = await listRevisions(db, clip.id, 'gt', 1);
    const [twinRev] = await listRevisions(db, twin.id, 'gt', 1);
    expect({ ...rev, seq: 0, id: '', clipId: '', at: 0 }).toEqual({ ...twinRev, seq: 0, id: '', clipId: '', at: 0 });
    expect(rev!.author).toBe('ann');
    // A recovered stroke is a row of its own, with its own id (docs/sync.md "Row identity").
    expect(rev!.id).toMatch(UUID_PATTERN);
    expect(rev!.id).not.toBe(twinRev!.id);

    expect(await recoverGestureDrafts(db)).toEqual([]); // nothing is applied twice
    expect((await listRevisions(db, clip.id, 'gt', 1)).length).toBe(1);
    await done.close();
  });

  it('replays on top of what is stored, and the editor opened afterwards can undo it', async () => {
    const first = await openSession(clip);
    await drag(first, 1.5, true);
    await first.flush();
    await drag(first, 3.5, false);
    await recoverGestureDrafts(db);
    const s = await openSession(clip, 'bob');
    expect(labelArea(s.map, 1)).toBe(14);
    await s.undo();
    expect(labelArea(s.map, 1)).toBe(7);
    await s.close();
  });

  it('drops a draft whose clip went to the trash, and one that changed nothing', async () => {
    const s = await openSession(clip);
    await drag(s, 2.5, true);
    await s.flush();
    await drag(s, 2.5, false); // over the same pixels: no change
    const other = await openSession(twin);
    await drag(other, 2.5, false);
    await trashClip(db, twin.id);

    const recovered = await recoverGestureDrafts(db);
    expect(recovered.map((r) => [r.clipId, r.outcome, r.reason])).toEqual(
      expect.arrayContaining([
        [clip.id, 'dropped', 'it changed nothing'],
        [twin.id, 'dropped', 'its clip is in the trash'],
      ]),
    );
    expect(await draftRows()).toEqual([]);
    expect((await listRevisions(db, clip.id, 'gt', 1)).length).toBe(1);
  });

  it('leaves the draft for later when the clip may not be written now', async () => {
    const s = await openSession(clip);
    await drag(s, 2.5, false);
    const recovered = await recoverGestureDrafts(db, () => Promise.reject(new Error('another tab edits it')));
    expect(recovered.map((r) => [r.outcome, r.reason])).toEqual([['waiting', 'another tab edits it']]);
    expect((await draftRows()).length).toBe(3);
  });
});
