import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BinaryMask } from './binaryMask';
import { boundaryF, boundaryMap, boundaryRadius, squaredDistanceTransform } from './boundary';
import { jAndF } from './davis';
import { jaccard } from './jaccard';
import { portFMeasure } from '../testing/davis2017Port';
import { blank, sq } from '../testing/metricFixtures';

const close = (actual: number, expected: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9);
};

/** Literal port of davis2017 f_measure (src/testing), the oracle for the EDT-based implementation. */
const naiveBoundaryF = portFMeasure;

const count = (m: BinaryMask): number => m.data.reduce((a, b) => a + b, 0);

describe('boundaryRadius (vectors §1)', () => {
  it.each([
    [854, 480, 8],
    [1280, 720, 12],
    [1920, 1080, 18],
    [256, 256, 3],
    [100, 100, 2],
    [10, 10, 1],
  ])('%ix%i -> %i', (w, h, r) => expect(boundaryRadius(w, h)).toBe(r));

  it('uses bound_th as the radius when >= 1 and rejects fractional pixel radii', () => {
    expect(boundaryRadius(854, 480, 3)).toBe(3);
    expect(() => boundaryRadius(854, 480, 2.5)).toThrow(RangeError);
    expect(() => boundaryRadius(854, 480, 0)).toThrow(RangeError);
  });
});

describe('boundaryMap (seg2bmap)', () => {
  it('gives 4k pixels for a k x k square, shifted half a pixel toward the origin', () => {
    const b = boundaryMap(sq(10, 10, 2, 5, 2, 5));
    expect(count(b)).toBe(16);
    // Row 1 above the square is boundary (south neighbour differs), the square's own last row is.
    expect(b.data[1 * 10 + 3]).toBe(1);
    expect(b.data[5 * 10 + 3]).toBe(1);
    expect(b.data[2 * 10 + 1]).toBe(1);
    expect(b.data[3 * 10 + 5]).toBe(1);
    expect(b.data[1 * 10 + 1]).toBe(1); // south-east neighbour
    expect(b.data[6 * 10 + 3]).toBe(0);
  });

  it('has no boundary for an all-ones mask, and none on the image border', () => {
    expect(count(boundaryMap(blank(10, 10, 1)))).toBe(0);
    // A square in the bottom-right corner: its edges on the image border produce no boundary,
    // only its left and top edges do (seen from the last row / last column as well).
    const touching = boundaryMap(sq(6, 6, 3, 5, 3, 5));
    expect([3, 4, 5].map((c) => touching.data[5 * 6 + c])).toEqual([0, 0, 0]);
    expect([3, 4, 5].map((r) => touching.data[r * 6 + 5])).toEqual([0, 0, 0]);
    expect(touching.data[5 * 6 + 2]).toBe(1);
    expect(touching.data[2 * 6 + 5]).toBe(1);
    expect(count(touching)).toBe(7); // row 2 (cols 2..5) and col 2 (rows 3..5)
  });

  it('removes void before extraction', () => {
    const voidCols = sq(10, 10, 0, 9, 0, 2);
    const b = boundaryMap(sq(10, 10, 2, 5, 2, 5), voidCols);
    expect(count(b)).toBe(count(boundaryMap(sq(10, 10, 2, 5, 3, 5))));
  });
});

describe('DAVIS J and F (vectors §1, 10x10, GT = sq(2..5, 2..5))', () => {
  const gt = sq(10, 10, 2, 5, 2, 5);
  const cases: [string, BinaryMask, BinaryMask, BinaryMask | undefined, number, number][] = [
    ['D1', gt, sq(10, 10, 2, 5, 3, 6), undefined, 0.6, 1.0],
    ['D2', gt, sq(10, 10, 2, 5, 4, 7), undefined, 0.333333333333, 0.625],
    ['D3', gt, gt, undefined, 1, 1],
    ['D4', gt, blank(10, 10), undefined, 0, 0],
    ['D5', blank(10, 10), blank(10, 10), undefined, 1, 1],
    ['D6', blank(10, 10), gt, undefined, 0, 0],
    ['D7', blank(10, 10, 1), blank(10, 10), undefined, 0, 1],
    ['D8', gt, sq(10, 10, 2, 5, 3, 6), sq(10, 10, 0, 9, 0, 2), 0.75, 1.0],
  ];
  it.each(cases)('%s', (_name, g, p, v, j, f) => {
    close(jaccard(g, p, v), j);
    close(boundaryF(g, p, v).f, f);
    const both = jAndF(g, p, v);
    close(both.jf, (j + f) / 2);
  });

  it('reports the precision/recall edge cases', () => {
    expect(boundaryF(gt, blank(10, 10))).toMatchObject({ precision: 1, recall: 0, f: 0 });
    expect(boundaryF(blank(10, 10), gt)).toMatchObject({ precision: 0, recall: 1, f: 0 });
    expect(boundaryF(blank(10, 10), blank(10, 10))).toMatchObject({ precision: 1, recall: 1, f: 1 });
  });
});

describe('DAVIS J and F (vectors §1, 480x854, square shifted right by s)', () => {
  const gt = sq(480, 854, 100, 199, 100, 199);
  it.each([
    [8, 0.851851851852, 1.0],
    [9, 0.834862385321, 0.54],
    [12, 0.785714285714, 0.525],
    [16, 0.724137931034, 0.505],
  ])('s = %i', (s, j, f) => {
    const pred = sq(480, 854, 100, 199, 100 + s, 199 + s);
    close(jaccard(gt, pred), j);
    const score = boundaryF(gt, pred);
    expect(score.radius).toBe(8);
    close(score.f, f);
  });
});

describe('boundary F edge cases', () => {
  it('scores a full-frame prediction against a full-frame GT as perfect (no boundaries)', () => {
    expect(boundaryF(blank(20, 30, 1), blank(20, 30, 1)).f).toBe(1);
  });

  it('handles masks touching every border and a single pixel', () => {
    const g = sq(12, 12, 0, 11, 0, 5);
    const p = sq(12, 12, 0, 11, 0, 6);
    close(boundaryF(g, p).f, naiveBoundaryF(g, p, undefined, 1));
    // The bottom-right pixel itself is never boundary; its west, north and north-west
    // neighbours are.
    const dot = sq(12, 12, 11, 11, 11, 11);
    expect(boundaryF(dot, dot)).toMatchObject({ predBoundary: 3, gtBoundary: 3, f: 1 });
    expect(boundaryF(dot, blank(12, 12))).toMatchObject({ precision: 1, recall: 0, f: 0 });
  });

  it('rejects size mismatches', () => {
    expect(() => boundaryF(blank(10, 10), blank(10, 11))).toThrow(RangeError);
    expect(() => jaccard(blank(10, 10), blank(11, 10))).toThrow(RangeError);
  });

  it('works on unaligned views (no word fast path)', () => {
    const buf = new Uint8Array(101);
    const view = { width: 10, height: 10, data: buf.subarray(1) };
    view.data.set(sq(10, 10, 2, 5, 3, 6).data);
    close(jaccard(sq(10, 10, 2, 5, 2, 5), view), 0.6);
    close(boundaryF(sq(10, 10, 2, 5, 2, 5), view).f, 1);
  });
});

describe('squaredDistanceTransform', () => {
  it('matches brute force on random masks', () => {
    fc.assert(
      fc.property(maskArb(1, 14), (m) => {
        const dt = squaredDistanceTransform(m);
        const pts: [number, number][] = [];
        m.data.forEach((v, i) => v && pts.push([(i / m.width) | 0, i % m.width]));
        for (let i = 0; i < m.data.length; i++) {
          const y = (i / m.width) | 0;
          const x = i % m.width;
          let best = Infinity;
          for (const [py, px] of pts) best = Math.min(best, (py - y) ** 2 + (px - x) ** 2);
          if (dt[i] !== best) return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });
});

/** Random masks: sparse noise, dense noise and rectangles, so boundaries take every shape. */
function maskArb(minSide: number, maxSide: number, fixed?: { width: number; height: number }) {
  const size = fixed
    ? fc.constant(fixed)
    : fc.record({ width: fc.integer({ min: minSide, max: maxSide }), height: fc.integer({ min: minSide, max: maxSide }) });
  return size.chain(({ width, height }) =>
    fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: width * height, maxLength: width * height }))
      .map(([density, noise]): BinaryMask => ({ width, height, data: Uint8Array.from(noise, (n) => (n < density ? 1 : 0)) })),
  );
}

describe('property: EDT-based F equals disk-dilation F', () => {
  it('on random small masks, with and without void, for several radii', () => {
    const case_ = fc
      .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 24 }) })
      .chain((size) =>
        fc.tuple(
          maskArb(0, 0, size),
          maskArb(0, 0, size),
          fc.option(maskArb(0, 0, size), { nil: undefined }),
          fc.constantFrom(0.008, 1, 2, 3, 5),
        ),
      );
    fc.assert(
      fc.property(case_, ([g, p, v, th]) => {
        const r = boundaryRadius(g.width, g.height, th);
        const fast = boundaryF(g, p, v, th).f;
        const slow = naiveBoundaryF(g, p, v, r);
        return Math.abs(fast - slow) <= 1e-12;
      }),
      { numRuns: 500 },
    );
  });

  it('on blob-like masks (shifted rectangles unions)', () => {
    const rect = (w: number, h: number) =>
      fc.tuple(fc.integer({ min: 0, max: h - 1 }), fc.integer({ min: 0, max: h - 1 }), fc.integer({ min: 0, max: w - 1 }), fc.integer({ min: 0, max: w - 1 }));
    const blobs = (w: number, h: number) =>
      fc.array(rect(w, h), { minLength: 0, maxLength: 4 }).map((rs) => {
        const data = new Uint8Array(w * h);
        for (const [a, b, c, d] of rs) {
          for (let y = Math.min(a, b); y <= Math.max(a, b); y++) for (let x = Math.min(c, d); x <= Math.max(c, d); x++) data[y * w + x] = 1;
        }
        return { width: w, height: h, data } as BinaryMask;
      });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }).chain((w) => fc.integer({ min: 2, max: 40 }).chain((h) => fc.tuple(blobs(w, h), blobs(w, h), fc.constantFrom(1, 2, 4, 7)))),
        ([g, p, th]) => Math.abs(boundaryF(g, p, undefined, th).f - naiveBoundaryF(g, p, undefined, th)) <= 1e-12,
      ),
      { numRuns: 300 },
    );
  });
});

describe('EDT-based F on mid-size noisy blobs', () => {
  it('equals disk-dilation F for a 96x128 pair at radius 8', () => {
    const w = 128;
    const h = 96;
    const blob = (cx: number, cy: number, r: number, seed: number): BinaryMask => {
      const data = new Uint8Array(w * h);
      let s = seed;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          s = (s * 1103515245 + 12345) & 0x7fffffff;
          const jitter = (s / 0x7fffffff - 0.5) * 6;
          if ((x - cx) ** 2 + (y - cy) ** 2 <= (r + jitter) ** 2) data[y * w + x] = 1;
        }
      }
      return { width: w, height: h, data };
    };
    const g = blob(60, 45, 30, 1);
    const p = blob(66, 48, 28, 2);
    const fast = boundaryF(g, p, undefined, 8);
    expect(Math.abs(fast.f - naiveBoundaryF(g, p, undefined, 8))).toBeLessThanOrEqual(1e-12);
    expect(fast.f).toBeGreaterThan(0);
    expect(fast.f).toBeLessThan(1);
  });
});
