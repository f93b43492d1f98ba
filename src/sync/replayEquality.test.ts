/**
 * "The stored layer always equals the replay of all revisions" (annotator/historyReplay.ts), for the
 * replay the sync client rebuilds layers with (masks/replayRevisions.ts): edits made through the
 * editor's own code paths (EditorSession: brush in both classes, eraser, undo, redo, over
 * several frames) and replayed from the stored revisions give exactly the stored layers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditorSession } from '../annotator/session/editorSession';
import { encodeLayer } from '../masks/layers';
import { replayRevisionLabels } from '../masks/replayRevisions';
import type { SpocDb } from '../store/db';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { listRevisions } from '../store/revisions';
import type { Clip } from '../store/types';
import { freshDb, importDraft } from '../testing/storeFixtures';
import { inReplayOrder } from './replayOrder';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 4, { layers: [] })); // 8x6 frames, no masks
});
afterEach(() => db.close());

const drag = (s: EditorSession, from: [number, number], to: [number, number]) => {
  s.pointerDown({ x: from[0], y: from[1], button: 0, shift: false, alt: false });
  s.pointerMove({ x: (from[0] + to[0]) / 2, y: (from[1] + to[1]) / 2, button: 0, shift: false, alt: false });
  s.pointerMove({ x: to[0], y: to[1], button: 0, shift: false, alt: false });
  s.pointerUp({ x: to[0], y: to[1], button: 0, shift: false, alt: false });
};

describe('replaying stored revisions', () => {
  it("rebuilds exactly the layers the editor stored, through brush, eraser, undo and redo", async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(2);
    drag(s, [0.5, 0.5], [7.5, 4.5]);
    s.setClass(2);
    drag(s, [0.5, 5.5], [7.5, 1.5]);
    s.setTool('eraser');
    drag(s, [3.5, 0.5], [3.5, 5.5]);
    await s.undo();
    await s.redo();
    await s.undo();
    s.setTool('brush');
    s.setClass(1);
    drag(s, [6.5, 0.5], [6.5, 5.5]); // after an undo: the redo stack is dropped
    await s.goToFrame(2);
    s.setClass(2);
    drag(s, [1.5, 1.5], [5.5, 1.5]);
    s.setClass(1);
    drag(s, [0.5, 4.5], [6.5, 4.5]);
    await s.undo();
    await s.redo();
    s.setTool('eraser');
    drag(s, [0.5, 0.5], [7.5, 5.5]);
    await s.flush();
    await s.close();

    let checked = 0;
    for (const frame of [0, 2]) {
      const stored = (await db.layers.get([clip.id, 'gt', frame]))!;
      const revisions = await listRevisions(db, clip.id, 'gt', frame);
      expect(revisions.length).toBeGreaterThan(3);
      const replay = encodeLayer(replayRevisionLabels(clip.width, clip.height, inReplayOrder(revisions)));
      expect(replay).toEqual({ act: stored.act, trf: stored.trf });
      checked += revisions.length;
    }
    expect(new Set((await db.revisions.toArray()).map((r) => r.action.replace(/^(undo|redo):/, '')))).toEqual(new Set(['brush', 'erase']));
    expect(checked).toBeGreaterThan(8);
  });
});
