import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCountsWhere, onTableFor } from '../../masks/rle';
import { polygonCounts } from '../../masks/rlePoly';
import { maskArb } from '../../masks/testdata/naive';
import { traceContours, type Ring } from './contours';
import { xorCounts } from './stateMasks';

function rasterise(rings: Ring[], h: number, w: number): number[] {
  return Array.from(xorCounts(rings.map((r) => polygonCounts(r, h, w)), h * w));
}

function rowsMap(rows: string[]) {
  const h = rows.length;
  const w = rows[0].length;
  return { width: w, height: h, data: Uint8Array.from(rows.join(''), (c) => Number(c)) };
}

describe('traceContours', () => {
  it('traces one pixel as a clockwise unit square of corners', () => {
    expect(traceContours(rowsMap(['000', '010', '000']), 1)).toEqual([[1, 1, 2, 1, 2, 2, 1, 2]]);
  });

  it('emits corners only, and holes as separate anticlockwise rings', () => {
    const map = rowsMap(['11111', '10001', '10101', '10001', '11111']);
    const rings = traceContours(map, 1);
    expect(rings).toEqual([
      [0, 0, 5, 0, 5, 5, 0, 5],
      [1, 1, 1, 4, 4, 4, 4, 1],
      [2, 2, 3, 2, 3, 3, 2, 3],
    ]);
    expect(rasterise(rings, 5, 5)).toEqual(Array.from(encodeCountsWhere(map.data, 5, 5, onTableFor(1))));
  });

  it('splits pixels touching only at a corner (4-connected foreground)', () => {
    const rings = traceContours(rowsMap(['10', '01']), 1);
    expect(rings).toEqual([
      [0, 0, 1, 0, 1, 1, 0, 1],
      [1, 1, 2, 1, 2, 2, 1, 2],
    ]);
  });

  it('gives no rings for an absent label and the frame for a full one', () => {
    expect(traceContours(rowsMap(['00', '00']), 1)).toEqual([]);
    expect(traceContours(rowsMap(['22', '22']), 2)).toEqual([[0, 0, 2, 0, 2, 2, 0, 2]]);
  });

  it('is inverted exactly by rleFrPoly + even-odd on any mask (property)', () => {
    fc.assert(
      fc.property(maskArb([0, 1, 2]), ({ mask, h, w }) => {
        const map = { width: w, height: h, data: mask };
        for (const label of [1, 2]) {
          const expected = Array.from(encodeCountsWhere(mask, h, w, onTableFor(label)));
          expect(rasterise(traceContours(map, label), h, w)).toEqual(expected);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('handles a checkerboard (every pixel its own ring)', () => {
    const h = 31;
    const w = 17;
    const data = new Uint8Array(h * w);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = (x + y) % 2;
    const rings = traceContours({ width: w, height: h, data }, 1);
    expect(rings.length).toBe(Math.floor((h * w) / 2));
    expect(rasterise(rings, h, w)).toEqual(Array.from(encodeCountsWhere(data, h, w, onTableFor(1))));
  });
});
