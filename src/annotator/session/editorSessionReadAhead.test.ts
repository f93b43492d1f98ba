/**
 * The look-ahead read of the next frame's masks (editorSession.ts readAhead): stepping through a
 * clip finds the next map already read, and neither an edit of that frame during the read nor a
 * reload from the store can leave a stale copy behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { saveFrameEdits } from '../../store/layers';
import { H, rleWithArea, W } from '../../testing/storeFixtures';
import { emptyClipStore } from '../../testing/sessionFixtures';
import type { Clip } from '../../store/types';
import { labelArea } from '../../masks/geometry';
import type { LabelMap } from '../../masks/labelMap';
import { EditorSession } from './editorSession';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(5)); // 8x6 frames, no masks
});
afterEach(() => db.close());

/** Counts the reads of gt layers from the store (the table behind getLayer). */
function countLayerReads(): { reads: number[] } {
  const seen = { reads: [] as number[] };
  db.layers.hook('reading', (row) => {
    if (row?.source === 'gt') seen.reads.push(row.frameIndex);
    return row;
  });
  return seen;
}

/** Stores frame k's gt with `area` actionable pixels, as another writer would. */
async function storeArea(k: number, area: number) {
  await saveFrameEdits(db, [
    { layer: { clipId: clip.id, frameIndex: k, source: 'gt', act: rleWithArea(H, W, area), trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: 'other', at: 5 } }, revisions: [] },
  ]);
}

const setPixel = (i: number, v: number) => (map: LabelMap) => {
  const next = map.data.slice();
  next[i] = v;
  return next;
};

describe('EditorSession read-ahead', () => {
  it('reads the next frame in the direction of travel once, and the switch to it reads nothing more', async () => {
    for (const k of [0, 1, 3, 4]) await storeArea(k, 1);
    await storeArea(2, 7);
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const seen = countLayerReads();
    await s.goToFrame(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.reads).toEqual([1, 2]);
    await s.goToFrame(2);
    expect(labelArea(s.map, 1)).toBe(7);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.reads).toEqual([1, 2, 3]); // frame 2 came from the read-ahead; 3 is the next one
    await s.goToFrame(1); // backwards: frames 1 and 0 (shown first) are remembered: nothing is read
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.reads).toEqual([1, 2, 3]);
    await s.close();
  });

  it('reads ahead backwards when stepping backwards', async () => {
    for (const k of [0, 1, 2, 3, 4]) await storeArea(k, 1);
    const s = await EditorSession.open(db, clip, 'ann', 4);
    const seen = countLayerReads();
    await s.goToFrame(3);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.reads).toEqual([3, 2]);
    await s.close();
  });

  it('an edit of the frame being read ahead lands on the map that is kept', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const switching = s.goToFrame(1);
    // Queued right behind the switch, while frame 2 is being read ahead.
    const edit = s.edit(2, 'propagate-flow', setPixel(3, 1));
    await switching;
    expect(await edit).toMatchObject({ status: 'applied', frameIndex: 2 });
    await s.goToFrame(2);
    expect(labelArea(s.map, 1)).toBe(1);
    await s.close();
  });

  it('a map read ahead while the clip is reloaded from the store is not kept', async () => {
    await storeArea(2, 4);
    const s = await EditorSession.open(db, clip, 'ann', 0);
    await s.goToFrame(1); // frame 2 is now being read ahead
    const ahead = s.loadMap(2); // the same read
    await s.reloadFromStore(); // another tab changed the clip: every cached map goes
    const stale = await ahead;
    const fresh = await s.loadMap(2);
    expect(fresh).not.toBe(stale);
    expect(labelArea(fresh, 1)).toBe(4);
    await s.close();
  });
});
