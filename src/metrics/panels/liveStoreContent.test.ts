/**
 * The content box of a frame is computed once per frame switch, by the session, and handed along
 * with the frame (EditorSession.shownContent): the live area counter starts from it rather than
 * scanning the frame again (docs/architecture.md, "One owner per UI fact").
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveFrameEdits } from '../../store/layers';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { emptyClipStore, stroke } from '../../testing/sessionFixtures';
import { H, rleWithArea, W } from '../../testing/storeFixtures';
import { contentBox, labelArea } from '../../masks/geometry';
import { createLabelMap } from '../../masks/labelMap';
import { EditorSession } from '../../annotator/session/editorSession';
import { LiveAreaStore } from './liveStore';
import { TileAreaCounter } from './liveAreas';

// Counts the scans: every caller imports contentBox from this one module.
vi.mock('../../masks/geometry', async (importOriginal) => {
  const geometry = await importOriginal<typeof import('../../masks/geometry')>();
  return { ...geometry, contentBox: vi.fn(geometry.contentBox) };
});
const scans = vi.mocked(contentBox);

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(3)); // 8x6 frames, no masks
  await saveFrameEdits(db, [
    { layer: { clipId: clip.id, frameIndex: 1, source: 'gt', act: rleWithArea(H, W, 13), trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: 'other', at: 5 } }, revisions: [] },
  ]);
});
afterEach(() => db.close());

describe('the content box of a frame switch', () => {
  it('is computed once, by the session, and the live area counter reuses it', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    const store = new LiveAreaStore(s, (fn) => (fn(), () => undefined));
    // Listeners run in the order they subscribed: the store's frame listener runs between these two.
    let beforeStore = 0;
    let byStore = -1;
    s.onFrame(() => (beforeStore = scans.mock.calls.length));
    const detach = store.attach();
    s.onFrame(() => (byStore = scans.mock.calls.length - beforeStore));

    scans.mockClear();
    await s.goToFrame(1);
    expect(byStore).toBe(0);
    expect(scans).toHaveBeenCalledTimes(1);
    expect(s.shownContent).toEqual(contentBox(s.map));
    expect(store.getSnapshot().current).toEqual({ act: 13, trf: 0 });

    // A stroke widens the box the session hands along; the next switch back counts it exactly.
    stroke(s, 5.5);
    const painted = labelArea(s.map, 1);
    expect(painted).toBeGreaterThan(13);
    await s.goToFrame(2);
    scans.mockClear();
    await s.goToFrame(1);
    expect(byStore).toBe(0);
    expect(scans).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().current).toEqual({ act: painted, trf: 0 });
    detach();
    await s.close();
  });

  it('a counter given the box counts as one that computes it, also from a wider box', () => {
    const map = createLabelMap(70, 50);
    for (let y = 10; y < 30; y++) for (let x = 40; x < 65; x++) map.data[y * 70 + x] = y < 20 ? 1 : 2;
    const computed = new TileAreaCounter(map, 16).areas;
    expect(computed).toEqual({ act: 250, trf: 250 });
    scans.mockClear();
    expect(new TileAreaCounter(map, 16, contentBox(map)).areas).toEqual(computed);
    expect(new TileAreaCounter(map, 16, { x: 0, y: 0, w: 70, h: 50 }).areas).toEqual(computed);
    expect(scans).toHaveBeenCalledTimes(1); // the one call above, none in the counters
    expect(new TileAreaCounter(createLabelMap(70, 50), 16, null).areas).toEqual({ act: 0, trf: 0 });
  });
});
