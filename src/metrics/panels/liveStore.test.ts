import { describe, expect, it, vi } from 'vitest';
import { createLabelMap, type Box, type LabelMap } from '../../masks/labelMap';
import { LiveAreaStore, type PanelSession } from './liveStore';

class FakeSession implements PanelSession {
  map: LabelMap = createLabelMap(40, 30);
  snapshot = { frameIndex: 0, readOnly: false };
  private boxes = new Set<(b: Box) => void>();
  private frames = new Set<(m: LabelMap) => void>();
  onInvalidate(fn: (b: Box) => void) {
    this.boxes.add(fn);
    return () => this.boxes.delete(fn);
  }
  onFrame(fn: (m: LabelMap) => void) {
    this.frames.add(fn);
    return () => this.frames.delete(fn);
  }
  async loadMap() {
    return this.map;
  }
  paint(box: Box, v: number) {
    for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) this.map.data[y * this.map.width + x] = v;
    for (const fn of this.boxes) fn(box);
  }
  goTo(k: number, map: LabelMap) {
    this.snapshot = { ...this.snapshot, frameIndex: k };
    this.map = map;
    for (const fn of this.frames) fn(map);
  }
}

describe('LiveAreaStore', () => {
  it('publishes once per scheduled frame with the current areas and the frames edited here', () => {
    const session = new FakeSession();
    const queue: (() => void)[] = [];
    const store = new LiveAreaStore(session, (fn) => {
      queue.push(fn);
      return () => queue.splice(queue.indexOf(fn), 1);
    });
    let published = 0;
    store.subscribe(() => published++);
    const detach = store.attach();
    expect(queue).toHaveLength(1);
    queue.shift()!();
    expect(store.getSnapshot()).toMatchObject({ frameIndex: 0, current: { act: 0, trf: 0 } });
    expect(store.getSnapshot().edited.size).toBe(0);

    session.paint({ x: 0, y: 0, w: 10, h: 10 }, 1);
    session.paint({ x: 5, y: 5, w: 10, h: 10 }, 2);
    expect(queue).toHaveLength(1); // two boxes, one publication
    queue.shift()!();
    expect(published).toBe(2);
    expect(store.getSnapshot().current).toEqual({ act: 75, trf: 100 });
    expect(store.getSnapshot().edited.get(0)).toEqual({ act: 75, trf: 100 });
    expect(store.getSnapshot().boxWork).toBeGreaterThanOrEqual(0);

    // Another frame: counted on arrival, but only edits make it "edited".
    const next = createLabelMap(40, 30, 2);
    session.goTo(3, next);
    queue.shift()!();
    expect(store.getSnapshot()).toMatchObject({ frameIndex: 3, current: { act: 0, trf: 1200 } });
    expect([...store.getSnapshot().edited.keys()]).toEqual([0]);
    expect(store.map).toBe(next);

    detach();
    session.paint({ x: 0, y: 0, w: 1, h: 1 }, 1);
    expect(queue).toHaveLength(0);
  });

  it('does not mark frames edited in a read-only session', () => {
    const session = new FakeSession();
    session.snapshot = { frameIndex: 0, readOnly: true };
    const store = new LiveAreaStore(session, (fn) => {
      fn();
      return () => undefined;
    });
    store.attach();
    session.paint({ x: 0, y: 0, w: 2, h: 2 }, 1);
    expect(store.getSnapshot().current).toEqual({ act: 4, trf: 0 });
    expect(store.getSnapshot().edited.size).toBe(0);
  });

  it('publishes edits at most once per edit interval, always the last one, and a frame switch at once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const session = new FakeSession();
      const queue: (() => void)[] = [];
      const store = new LiveAreaStore(
        session,
        (fn) => {
          queue.push(fn);
          return () => queue.splice(queue.indexOf(fn), 1);
        },
        undefined,
        500,
      );
      store.attach();
      queue.shift()!(); // the first frame
      vi.advanceTimersByTime(600);
      session.paint({ x: 0, y: 0, w: 2, h: 2 }, 1); // long after the last publication: the next animation frame
      expect(queue).toHaveLength(1);
      queue.shift()!();
      expect(store.getSnapshot().current).toEqual({ act: 4, trf: 0 });
      // A stroke's moves within the interval: nothing until it has passed, then the last areas.
      for (let i = 1; i <= 5; i++) {
        vi.advanceTimersByTime(50);
        session.paint({ x: 0, y: i * 2, w: 2, h: 2 }, 1);
      }
      expect(queue).toHaveLength(0);
      expect(store.getSnapshot().current).toEqual({ act: 4, trf: 0 });
      vi.advanceTimersByTime(250);
      expect(queue).toHaveLength(1);
      queue.shift()!();
      expect(store.getSnapshot().current).toEqual({ act: 24, trf: 0 });
      expect(store.getSnapshot().edited.get(0)).toEqual({ act: 24, trf: 0 });
      // An edit, then a frame switch: the switch does not wait for the interval.
      session.paint({ x: 10, y: 10, w: 2, h: 2 }, 2);
      expect(queue).toHaveLength(0);
      session.goTo(1, createLabelMap(40, 30, 1));
      expect(queue).toHaveLength(1);
      queue.shift()!();
      expect(store.getSnapshot()).toMatchObject({ frameIndex: 1, current: { act: 1200, trf: 0 } });
      expect(store.getSnapshot().edited.get(0)).toEqual({ act: 24, trf: 4 });
      vi.advanceTimersByTime(1000);
      expect(queue).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
