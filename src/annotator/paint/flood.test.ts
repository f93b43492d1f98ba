import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { floodRegion } from './flood';
import { paintSpans } from './spans';
import { paintTable } from './paintRule';

function mapOf(rows: string[]): LabelMap {
  return { width: rows[0].length, height: rows.length, data: Uint8Array.from(rows.join(''), (c) => Number(c)) };
}

/** Reference: breadth-first search over 4-neighbours. */
function bfs(map: LabelMap, x: number, y: number): Set<number> {
  const { width: w, height: h, data } = map;
  const label = data[y * w + x];
  const seen = new Set([y * w + x]);
  const queue = [y * w + x];
  while (queue.length) {
    const i = queue.pop()!;
    const px = i % w;
    const py = Math.floor(i / w);
    for (const [nx, ny] of [[px - 1, py], [px + 1, py], [px, py - 1], [px, py + 1]]) {
      const j = ny * w + nx;
      if (nx >= 0 && ny >= 0 && nx < w && ny < h && !seen.has(j) && data[j] === label) {
        seen.add(j);
        queue.push(j);
      }
    }
  }
  return seen;
}

function pixelsOf(map: LabelMap, x: number, y: number): Set<number> {
  const region = floodRegion(map, x, y)!;
  const out = new Set<number>();
  for (let k = 0; k < region.count; k++) {
    const [sy, x0, x1] = region.data.subarray(3 * k, 3 * k + 3);
    for (let sx = x0; sx < x1; sx++) out.add(sy * map.width + sx);
  }
  expect(out.size).toBe(region.area); // spans never overlap
  return out;
}

describe('floodRegion', () => {
  it('finds the 4-connected region, bounded by any other label; diagonals do not connect', () => {
    const map = mapOf(['00100', '01010', '10001', '01110', '00000']);
    const inside = floodRegion(map, 2, 2)!;
    expect(inside.label).toBe(0);
    expect(inside.area).toBe(4); // (2,1) (1,2) (2,2) (3,2)
    expect(inside.box).toEqual({ x: 1, y: 1, w: 3, h: 2 });
    expect(floodRegion(map, 0, 0)!.area).toBe(3); // (0,0) (1,0) (0,1): the corner pocket
    expect(floodRegion(map, 2, 0)!.area).toBe(1); // a 1 touching others only diagonally
  });

  it('returns null outside the map', () => {
    expect(floodRegion(createLabelMap(3, 3), -1, 0)).toBeNull();
    expect(floodRegion(createLabelMap(3, 3), 3, 0)).toBeNull();
  });

  it('handles a long spiral corridor without recursion', () => {
    // A one-pixel-wide corridor winding through 200 x 200: deep for any recursive fill.
    const n = 200;
    const map = createLabelMap(n, n, 1);
    let x0 = 0;
    let y0 = 0;
    let x1 = n - 1;
    let y1 = n - 1;
    while (x0 <= x1 && y0 <= y1) {
      for (let x = x0; x <= x1; x++) map.data[y0 * n + x] = 0;
      for (let y = y0; y <= y1; y++) map.data[y * n + x1] = 0;
      for (let x = x1; x >= x0; x--) map.data[y1 * n + x] = 0;
      for (let y = y1; y >= y0 + 2; y--) map.data[y * n + x0] = 0;
      x0 += 2;
      y0 += 2;
      x1 -= 2;
      y1 -= 2;
      if (x0 <= x1) map.data[y0 * n + x0 - 1] = 0;
    }
    expect(pixelsOf(map, 0, 0)).toEqual(bfs(map, 0, 0));
  });

  it('matches a breadth-first search on random maps (property)', () => {
    const arb = fc
      .record({ w: fc.integer({ min: 1, max: 24 }), h: fc.integer({ min: 1, max: 24 }) })
      .chain(({ w, h }) =>
        fc.record({
          map: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: 2 }).map((data) => ({ width: w, height: h, data })),
          x: fc.nat(w - 1),
          y: fc.nat(h - 1),
        }),
      );
    fc.assert(
      fc.property(arb, ({ map, x, y }) => {
        expect(pixelsOf(map, x, y)).toEqual(bfs(map, x, y));
      }),
      { numRuns: 300 },
    );
  });

  it('fills through spans', () => {
    const map = mapOf(['000', '020', '000']);
    paintSpans(map, floodRegion(map, 0, 0)!, paintTable(1, false));
    expect(Array.from(map.data)).toEqual([1, 1, 1, 1, 2, 1, 1, 1, 1]);
  });
});
