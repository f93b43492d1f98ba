import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLabelMap, type Box, type LabelMap } from '../../masks/labelMap';
import type { PanelSession } from '../../metrics/panels/liveStore';
import { mergeAreas } from '../../metrics/panels/progressSeries';
import { withEditedAreas } from '../../annotator/frameAreas';
import type { LayerAreas } from '../../store/layers';
import { liveAreas } from './liveAreas';

/** An editor session as the panels see it: a map, its frame, and the boxes each stroke invalidates. */
class FakeSession implements PanelSession {
  map: LabelMap = createLabelMap(40, 30);
  snapshot = { frameIndex: 1, readOnly: false };
  private boxes = new Set<(b: Box) => void>();
  onInvalidate(fn: (b: Box) => void) {
    this.boxes.add(fn);
    return () => this.boxes.delete(fn);
  }
  onFrame() {
    return () => undefined;
  }
  async loadMap() {
    return this.map;
  }
  paint(box: Box, v: number) {
    for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) this.map.data[y * this.map.width + x] = v;
    for (const fn of this.boxes) fn(box);
  }
}

afterEach(() => vi.useRealTimers());

describe('the live area store handed down through the slot context', () => {
  it('gives the timeline and the progress panel the same areas after an edit, before the store has them', () => {
    vi.useFakeTimers();
    const session = new FakeSession();
    // What the store holds: frame 1 empty (the stroke below is still behind the write-behind delay).
    const stored: LayerAreas[] = [
      { frameIndex: 0, actArea: 7, trfArea: 0 },
      { frameIndex: 1, actArea: 0, trfArea: 0 },
    ];
    // The editor makes and attaches the store (the `liveAreas` slot); the dock asks for the same session's store.
    const editorStore = liveAreas(session);
    expect(liveAreas(session)).toBe(editorStore);
    const detach = editorStore.attach();
    vi.advanceTimersByTime(20);

    session.paint({ x: 0, y: 0, w: 10, h: 10 }, 1);
    session.paint({ x: 20, y: 0, w: 5, h: 4 }, 2);
    // Edits reach the panels at most twice a second, the last one always (metrics/panels/liveStore.ts).
    vi.advanceTimersByTime(600);

    // The timeline's sparkline (useGtAreas over the context's stored rows and store) ...
    const timeline = withEditedAreas(stored, editorStore.getSnapshot().edited);
    // ... and the progress panel (the dock merges the same rows from the same session's store).
    const panel = mergeAreas(3, withEditedAreas(stored, liveAreas(session).getSnapshot().edited), new Map());
    const sparkline = timeline.find((r) => r.frameIndex === 1)!;
    expect(sparkline).toEqual({ frameIndex: 1, actArea: 100, trfArea: 20 });
    expect([panel.act[1], panel.trf[1]]).toEqual([sparkline.actArea, sparkline.trfArea]);
    expect([panel.act[0], timeline[0].actArea]).toEqual([7, 7]);
    // Handed the stored rows alone (as the timeline was), the sparkline lagged the panel.
    expect(stored[1].actArea).not.toBe(panel.act[1]);
    detach();
  });
});
