/**
 * Writing a propagated map through a real EditorSession (fake-indexeddb): one committed patch on
 * frame t+1 with the method in the revision's action, 'fill' never touching painted pixels, and a
 * single undo restoring the frame.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditorSession } from '../../../annotator/session/editorSession';
import { createLabelMap } from '../../../masks/labelMap';
import type { SpocDb } from '../../../store/db';
import { getLayer } from '../../../store/layers';
import { listRevisions } from '../../../store/revisions';
import { emptyClipStore } from '../../../testing/sessionFixtures';
import type { Clip } from '../../../store/types';
import type { PropagationResult } from '../../propagate/propagateFrame';
import { writePropagated } from './sessionPropagation';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(4)); // 8x6 frames, no masks
});
afterEach(() => db.close());

function result(to: number, fill: (x: number, y: number) => number, tags: PropagationResult['tags'] = []): PropagationResult {
  const map = createLabelMap(8, 6);
  for (let y = 0; y < 6; y++) for (let x = 0; x < 8; x++) map.data[y * 8 + x] = fill(x, y);
  return { from: to - 1, to, method: 'sam', map, confidence: 0.9, regions: [], redetected: false, tags, ms: 0 };
}

describe('writePropagated', () => {
  it('commits the map on t+1 as one revision without showing it; one undo there restores the frame', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const stored = await writePropagated(s, result(1, (x) => (x < 4 ? 1 : 2)), 'replace');
    // The run does not drive the view: the editor stays where it was, its frame untouched.
    expect(s.snapshot.frameIndex).toBe(0);
    expect(s.map.data.every((v) => v === 0)).toBe(true);
    expect(Array.from(stored.data)).toEqual(Array.from((await s.loadMap(1)).data));
    await s.goToFrame(1);
    expect(Array.from(stored.data)).toEqual(Array.from(s.map.data));
    await s.flush();
    expect(await getLayer(db, clip.id, 'gt', 1)).toMatchObject({ actArea: 24, trfArea: 24 });
    expect((await listRevisions(db, clip.id, 'gt', 1)).map((r) => r.action)).toEqual(['propagate-sam']);
    await s.undo();
    await s.flush();
    expect(await getLayer(db, clip.id, 'gt', 1)).toMatchObject({ actArea: 0, trfArea: 0 });
    await s.close();
  });

  it('carries instance tags to t+1 and stores them with the layer (replace takes the carried ones; fill adds missing numbers)', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    await writePropagated(s, result(1, (x) => (x < 4 ? 1 : 2), [{ id: 3, x: 1, y: 1 }]), 'replace');
    expect(s.tagsAt(1)).toEqual([{ id: 3, x: 1, y: 1 }]);
    expect(s.tags).toEqual([]); // frame 0's, still shown
    await s.flush();
    expect((await getLayer(db, clip.id, 'gt', 1))?.instances).toEqual({ tags: [{ id: 3, x: 1, y: 1 }] });
    await s.goToFrame(0);
    await writePropagated(s, result(1, () => 1, [{ id: 3, x: 6, y: 4 }, { id: 5, x: 2, y: 2 }]), 'fill');
    expect(s.tagsAt(1)).toEqual([{ id: 3, x: 1, y: 1 }, { id: 5, x: 2, y: 2 }]);
    await s.close();
  });

  it("'fill' keeps every painted pixel; 'replace' takes the propagated map", async () => {
    const s = await EditorSession.open(db, clip, 'ann', 1);
    await writePropagated(s, result(1, (_x, y) => (y === 0 ? 2 : 0)), 'replace'); // frame 2 holds a transformed top row
    await writePropagated(s, result(1, () => 1), 'fill');
    expect(s.map.data.slice(0, 8).every((v) => v === 2)).toBe(true);
    expect(s.map.data.slice(8).every((v) => v === 1)).toBe(true);
    await writePropagated(s, result(1, () => 1), 'replace');
    expect(s.map.data.every((v) => v === 1)).toBe(true);
    await s.flush();
    expect((await listRevisions(db, clip.id, 'gt', 1)).map((r) => r.action)).toEqual(['propagate-sam', 'propagate-sam', 'propagate-sam']);
    await s.close();
  });
});
