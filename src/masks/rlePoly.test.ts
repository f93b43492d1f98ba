import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaskFormatError, decodeRle, encodeRle } from './rle';
import { polygonCounts, rleFromPolygon } from './rlePoly';
import vectors from './testdata/cocoapi-vectors.json';
import { sq } from './testdata/naive';

describe('rleFromPolygon', () => {
  it('reference vector §2: [1,1,4,1,4,4,1,4] on 6x6 -> `733000;` (rows/cols 1..3)', () => {
    const rle = rleFromPolygon([1, 1, 4, 1, 4, 4, 1, 4], 6, 6);
    expect(rle.counts).toBe('733000;');
    expect(decodeRle(rle)).toEqual(sq(6, 6, 1, 3, 1, 3));
  });

  it.each(vectors.poly)('matches cocoapi rleFrPoly on $h x $w $xy', ({ h, w, xy, counts }) => {
    expect(rleFromPolygon(xy, h, w).counts).toBe(counts);
  });

  it('an integer rectangle covers columns x0..x1-1 and rows y0..y1-1, in either winding', () => {
    const arb = fc
      .record({ h: fc.integer({ min: 1, max: 30 }), w: fc.integer({ min: 1, max: 30 }) })
      .chain(({ h, w }) =>
        fc.record({
          h: fc.constant(h),
          w: fc.constant(w),
          x0: fc.integer({ min: 0, max: w - 1 }),
          y0: fc.integer({ min: 0, max: h - 1 }),
          dx: fc.integer({ min: 1, max: w }),
          dy: fc.integer({ min: 1, max: h }),
        }),
      );
    fc.assert(
      fc.property(arb, ({ h, w, x0, y0, dx, dy }) => {
        const x1 = Math.min(w, x0 + dx);
        const y1 = Math.min(h, y0 + dy);
        const expected = encodeRle(sq(h, w, y0, y1 - 1, x0, x1 - 1), h, w);
        expect(rleFromPolygon([x0, y0, x1, y0, x1, y1, x0, y1], h, w)).toEqual(expected);
        expect(rleFromPolygon([x0, y1, x1, y1, x1, y0, x0, y0], h, w)).toEqual(expected);
      }),
    );
  });

  it('covers h * w for any polygon, also far outside the frame', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 2, maxLength: 20 }),
        (h, w, coords) => {
          const xy = coords.length % 2 ? coords.slice(1) : coords;
          const counts = polygonCounts(xy, h, w);
          expect(counts.reduce((a, b) => a + b, 0)).toBe(h * w);
        },
      ),
    );
  });

  it('an empty polygon is an empty mask', () => {
    expect(Array.from(polygonCounts([], 3, 4))).toEqual([12]);
  });

  it('rejects bad coordinates', () => {
    expect(() => rleFromPolygon([1, 2, 3], 5, 5)).toThrow(/odd number of coordinates/);
    expect(() => rleFromPolygon([1, 2, NaN, 4], 5, 5)).toThrow(MaskFormatError);
    expect(() => rleFromPolygon([1, 2, 1e9, 4], 5, 5)).toThrow(/not a number within/);
    expect(() => rleFromPolygon([1, 1, 2, 2], 0, 5)).toThrow(/must be positive/);
  });
});
