import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap, type Box } from '../../masks/labelMap';
import { stateAreas } from '../progress';
import { TileAreaCounter } from './liveAreas';

function fill(map: { width: number; data: Uint8Array }, box: Box, value: number): void {
  for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) map.data[y * map.width + x] = value;
}

describe('TileAreaCounter', () => {
  it('counts a map on construction', () => {
    const map = createLabelMap(130, 70);
    fill(map, { x: 10, y: 5, w: 100, h: 20 }, 1);
    fill(map, { x: 60, y: 40, w: 30, h: 30 }, 2);
    map.data[0] = 4; // other labels are neither state
    expect(new TileAreaCounter(map, 16).areas).toEqual({ act: 2000, trf: 900 });
  });

  it('moves the totals by the change inside the box only', () => {
    const map = createLabelMap(200, 100);
    fill(map, { x: 0, y: 0, w: 50, h: 50 }, 1);
    const counter = new TileAreaCounter(map, 32);
    fill(map, { x: 40, y: 40, w: 30, h: 30 }, 2); // overwrites 10x10 actionable
    expect(counter.update({ x: 40, y: 40, w: 30, h: 30 })).toEqual({ act: 2500 - 100, trf: 900 });
    fill(map, { x: 40, y: 40, w: 30, h: 30 }, 0);
    expect(counter.update({ x: 40, y: 40, w: 30, h: 30 })).toEqual({ act: 2400, trf: 0 });
  });

  it('clips boxes to the map, and an outside box changes nothing', () => {
    const map = createLabelMap(10, 10);
    const counter = new TileAreaCounter(map, 4);
    fill(map, { x: 8, y: 8, w: 2, h: 2 }, 2);
    expect(counter.update({ x: -5, y: 20, w: 3, h: 3 })).toEqual({ act: 0, trf: 0 });
    expect(counter.update({ x: 7.5, y: 7.5, w: 50, h: 50 })).toEqual({ act: 0, trf: 4 });
  });

  it('rejects a bad tile size', () => {
    expect(() => new TileAreaCounter(createLabelMap(4, 4), 0)).toThrow(RangeError);
  });

  it('always equals a full recount after random edits reported by their boxes (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.tuple(fc.nat(60), fc.nat(60), fc.nat(30), fc.nat(30), fc.constantFrom(0, 1, 2, 3)), { maxLength: 25 }),
        (w, h, tile, edits) => {
          const map = createLabelMap(w, h);
          const counter = new TileAreaCounter(map, tile);
          for (const [x, y, bw, bh, v] of edits) {
            const box = { x: Math.min(x, w - 1), y: Math.min(y, h - 1), w: 0, h: 0 };
            box.w = Math.min(bw, w - box.x);
            box.h = Math.min(bh, h - box.y);
            fill(map, box, v);
            expect(counter.update(box)).toEqual(stateAreas(map));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
