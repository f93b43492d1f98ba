import { describe, expect, it } from 'vitest';
import type { Box } from '../../masks/labelMap';
import { OutlineTiles, SETTLE_MS, type IdleScheduler } from './outlineTiles';

/** Idle callbacks run by hand, each with a fixed number of tiles' worth of time. */
function manualIdle() {
  const queue: ((timeLeft: () => number) => void)[] = [];
  const delays: number[] = [];
  const idle: IdleScheduler = {
    request(fn, delayMs) {
      queue.push(fn);
      delays.push(delayMs);
      return () => queue.splice(queue.indexOf(fn), 1);
    },
  };
  /** Runs the next idle callback with time for `tiles` tiles (one per ms of margin). */
  const run = (tiles: number) => {
    let left = tiles + 0.5;
    queue.shift()!(() => left--);
  };
  return { idle, run, waiting: () => queue.length, delays };
}

const tile = (x: number, y: number): Box => ({ x, y, w: 128, h: 128 });

describe('OutlineTiles', () => {
  it("traces a new frame's tiles in idle time once it has stayed shown, not at the draw, and draws them once all are traced", () => {
    const { idle, run, waiting, delays } = manualIdle();
    const traced: string[] = [];
    let ready = 0;
    const tiles = new OutlineTiles((t) => (traced.push(`${t.x},${t.y}`), `path ${t.x},${t.y}`), idle, () => ready++);
    tiles.reset([tile(0, 0), tile(128, 0), tile(256, 0)]);
    expect([...tiles.paths()]).toEqual([]);
    expect(traced).toEqual([]);
    run(1); // a short idle slice: part of the frame
    expect(traced.length).toBeLessThan(3);
    expect([...tiles.paths()]).toEqual([]);
    expect(ready).toBe(0);
    while (waiting() > 0) run(1);
    expect(delays[0]).toBe(SETTLE_MS); // the first slice waits for the frame to settle
    expect(delays.slice(1).every((d) => d === 0)).toBe(true);
    expect(traced).toEqual(['0,0', '128,0', '256,0']);
    expect(ready).toBe(1);
    expect([...tiles.paths()]).toEqual(['path 0,0', 'path 128,0', 'path 256,0']);
  });

  it('traces tiles a stroke touched at the next draw, and never again in idle time', () => {
    const { idle, run, waiting } = manualIdle();
    const traced: string[] = [];
    const tiles = new OutlineTiles((t) => (traced.push(`${t.x},${t.y}`), `path ${t.x},${t.y}`), idle, () => undefined);
    tiles.reset([]);
    tiles.invalidate([tile(0, 0)]);
    expect([...tiles.paths()]).toEqual(['path 0,0']);
    expect(waiting()).toBe(0);

    tiles.reset([tile(0, 0), tile(128, 0)]);
    tiles.invalidate([tile(128, 0)]);
    traced.length = 0;
    expect([...tiles.paths()]).toEqual([]); // the frame is still being traced
    expect(traced).toEqual(['128,0']);
    run(5);
    expect(traced).toEqual(['128,0', '0,0']);
    expect([...tiles.paths()].sort()).toEqual(['path 0,0', 'path 128,0']);
  });

  it('drops the tracing of a frame left before it finished', () => {
    const { idle, run, waiting } = manualIdle();
    const traced: string[] = [];
    const tiles = new OutlineTiles((t) => (traced.push(`${t.x},${t.y}`), 'p'), idle, () => undefined);
    tiles.reset([tile(0, 0), tile(128, 0), tile(256, 0)]);
    tiles.reset([tile(0, 128)]);
    expect(waiting()).toBe(1);
    run(5);
    expect(traced).toEqual(['0,128']);
    tiles.reset([tile(0, 0)]);
    tiles.destroy();
    expect(waiting()).toBe(0);
  });

  it('keeps no path for a tile with no outline', () => {
    const { idle, run } = manualIdle();
    const tiles = new OutlineTiles((t) => (t.x === 0 ? null : 'p'), idle, () => undefined);
    tiles.reset([tile(0, 0), tile(128, 0)]);
    run(5);
    expect([...tiles.paths()]).toEqual(['p']);
  });
});
