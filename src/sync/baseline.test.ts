import { afterEach, describe, expect, it } from 'vitest';
import { encodeLayer } from '../masks/layers';
import { replayRevisionLabels } from '../masks/replayRevisions';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { listRevisions } from '../store/revisions';
import { gtLayer, importDraft, storePool } from '../testing/storeFixtures';
import { Painter } from '../testing/syncFixtures';
import { baselineClip, BASELINE_ACTION } from './baseline';
import { inReplayOrder } from './replayOrder';

const pool = storePool();
afterEach(() => pool.closeAll());

describe('baseline revisions', () => {
  it("turn an import's revision-less gt layers into revisions, after the edits made on them, so the replay equals every layer; a second run adds none", async () => {
    const db = await pool.open();
    const project = await createProject(db, { name: 'P' });
    const clip = await commitClipImport(db, importDraft(project.id, 3, { layers: [gtLayer(0, 5, 0), gtLayer(1, 7, 0)] })); // imported gt, no revisions
    await new Painter(db, clip, 'ann').stroke(1, { x: 0, y: 0, w: 2, h: 2 }, 0); // an edit over the imported mask
    expect(await baselineClip(db, clip.id)).toBe(2);
    for (const [frame, author] of [[0, 'wtc-importer'], [1, 'ann']] as const) {
      const revisions = await listRevisions(db, clip.id, 'gt', frame);
      // By the layer's last writer: on frame 1 the painter rewrote the layer, imported pixels and all.
      expect(revisions.at(-1)).toMatchObject({ action: BASELINE_ACTION, author });
      const layer = (await db.layers.get([clip.id, 'gt', frame]))!;
      expect(encodeLayer(replayRevisionLabels(clip.width, clip.height, inReplayOrder(revisions)))).toEqual({ act: layer.act, trf: layer.trf });
    }
    expect(await baselineClip(db, clip.id)).toBe(0);
  });
});
