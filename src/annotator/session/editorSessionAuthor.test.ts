/**
 * The author of every row the editor writes is whoever is named at that moment, not the
 * name the clip was opened with (renaming yourself in the header while a clip is open).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { emptyClipStore, stroke } from '../../testing/sessionFixtures';
import type { Clip } from '../../store/types';
import { userNames, authorNow } from '../../workspace/user';
import { EditorSession } from './editorSession';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(2)); // 8x6 frames, no masks
});
afterEach(() => db.close());

describe('EditorSession author', () => {
  it('credits each stroke, its undo and the layer to the name in force when it is written', async () => {
    const names = userNames(db);
    await names.set('alice');
    const s = await EditorSession.open(db, clip, authorNow(db), 0);
    s.setBrushSize(1);
    stroke(s, 1.5);
    await s.flush();
    // Renamed while the clip stays open: no reload, no new session.
    await names.set('bob');
    stroke(s, 3.5);
    await s.undo();
    await s.flush();
    const revisions = await listRevisions(db, clip.id, 'gt', 0);
    expect(revisions.map((r) => r.author)).toEqual(['alice', 'bob', 'bob']);
    expect((await getLayer(db, clip.id, 'gt', 0))?.provenance).toMatchObject({ kind: 'manual', by: 'bob' });
    await s.close();
  });

  it('takes the new name at once, before the store has written it', async () => {
    const names = userNames(db);
    await names.set('alice');
    const s = await EditorSession.open(db, clip, authorNow(db), 0);
    s.setBrushSize(1);
    void names.set('carol'); // not awaited: the stroke follows the rename immediately
    stroke(s, 1.5);
    await s.flush();
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => r.author)).toEqual(['carol']);
    await s.close();
  });

  it('still accepts a fixed name', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    stroke(s, 1.5);
    await s.flush();
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => r.author)).toEqual(['ann']);
    await s.close();
  });
});
