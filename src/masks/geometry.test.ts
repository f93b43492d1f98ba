import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxUnion, clampBox, contentBox, isEmptyBox, labelArea, labelBbox, labelHistogram, labelIou, labelOverlap } from './geometry';
import type { Box, LabelMap } from './labelMap';
import { masksArb, maskArb, naiveBbox } from './testdata/naive';

const mapOf = (mask: Uint8Array, h: number, w: number): LabelMap => ({ width: w, height: h, data: mask });

describe('labelHistogram / labelArea', () => {
  it('count pixels per label (property)', () => {
    fc.assert(
      fc.property(maskArb([0, 1, 2, 5, 255]), ({ mask, h, w }) => {
        const map = mapOf(mask, h, w);
        const hist = labelHistogram(map);
        for (const v of [0, 1, 2, 3, 5, 255]) {
          const n = mask.filter((x) => x === v).length;
          expect(hist[v]).toBe(n);
          expect(labelArea(map, v)).toBe(n);
        }
      }),
    );
  });
});

describe('labelBbox', () => {
  it('is the tight box, or null when absent (property)', () => {
    fc.assert(
      fc.property(maskArb([0, 1, 2]), ({ mask, h, w }) => {
        const [x, y, bw, bh] = naiveBbox(
          mask.map((v) => (v === 2 ? 1 : 0)),
          h,
          w,
        );
        const box = labelBbox(mapOf(mask, h, w), 2);
        expect(box).toEqual(bw === 0 ? null : { x, y, w: bw, h: bh });
      }),
      { numRuns: 300 },
    );
  });

  it('finds a box whose extreme columns are on middle rows', () => {
    const data = Uint8Array.from([0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]);
    expect(labelBbox(mapOf(data, 4, 4), 1)).toEqual({ x: 0, y: 0, w: 4, h: 4 });
  });
});

describe('contentBox', () => {
  it('is the tight box of the nonzero pixels, or null when all are zero (property)', () => {
    fc.assert(
      fc.property(maskArb([0, 0, 0, 1, 2, 255]), ({ mask, h, w }) => {
        const [x, y, bw, bh] = naiveBbox(mask.map((v) => (v !== 0 ? 1 : 0)), h, w);
        expect(contentBox(mapOf(mask, h, w))).toEqual(bw === 0 ? null : { x, y, w: bw, h: bh });
      }),
      { numRuns: 300 },
    );
  });

  it('reads rows four pixels at a time on aligned maps and one at a time on unaligned views', () => {
    const w = 8;
    const h = 6;
    const buffer = new Uint8Array(w * h + 1);
    const unaligned = buffer.subarray(1);
    const aligned = new Uint8Array(w * h);
    for (const data of [aligned, unaligned]) {
      data[2 * w + 5] = 1;
      data[4 * w + 1] = 2;
      expect(contentBox(mapOf(data, h, w))).toEqual({ x: 1, y: 2, w: 5, h: 3 });
    }
    expect(contentBox(mapOf(new Uint8Array(w * h), h, w))).toBeNull();
  });
});

describe('labelOverlap / labelIou', () => {
  it('matches pixel counting (property)', () => {
    fc.assert(
      fc.property(masksArb(2, [0, 1, 2]), ({ h, w, masks: [a, b] }) => {
        let i = 0;
        let u = 0;
        for (let k = 0; k < a.length; k++) {
          if (a[k] === 1 || b[k] === 1) u++;
          if (a[k] === 1 && b[k] === 1) i++;
        }
        expect(labelOverlap(mapOf(a, h, w), mapOf(b, h, w), 1)).toEqual({ intersection: i, union: u });
        expect(labelIou(mapOf(a, h, w), mapOf(b, h, w), 1)).toBe(u === 0 ? 0 : i / u);
      }),
    );
  });

  it('both empty: 0 by default (COCO), or what the caller asks (DAVIS J uses 1)', () => {
    const z = mapOf(new Uint8Array(4), 2, 2);
    expect(labelIou(z, z, 1)).toBe(0);
    expect(labelIou(z, z, 1, 1)).toBe(1);
  });

  it('refuses maps of different sizes', () => {
    expect(() => labelOverlap(mapOf(new Uint8Array(4), 2, 2), mapOf(new Uint8Array(4), 1, 4), 1)).toThrow(/differ in size/);
  });
});

describe('boxes', () => {
  const box = (x: number, y: number, w: number, h: number): Box => ({ x, y, w, h });

  it('boxUnion covers both and ignores empty boxes', () => {
    expect(boxUnion(box(1, 2, 3, 4), box(5, 0, 1, 1))).toEqual(box(1, 0, 5, 6));
    expect(boxUnion(box(1, 2, 0, 4), box(5, 0, 1, 1))).toEqual(box(5, 0, 1, 1));
    expect(boxUnion(box(5, 0, 1, 1), box(0, 0, 3, -1))).toEqual(box(5, 0, 1, 1));
    expect(isEmptyBox(boxUnion(box(1, 1, 0, 0), box(2, 2, 0, 5)))).toBe(true);
  });

  it('boxUnion is commutative and contains both (property)', () => {
    const arb = fc.record({ x: fc.integer({ min: -50, max: 50 }), y: fc.integer({ min: -50, max: 50 }), w: fc.nat(40), h: fc.nat(40) });
    fc.assert(
      fc.property(arb, arb, (a, b) => {
        const u = boxUnion(a, b);
        expect(boxUnion(b, a)).toEqual(u);
        for (const c of [a, b]) {
          if (isEmptyBox(c)) continue;
          expect(u.x <= c.x && u.y <= c.y && u.x + u.w >= c.x + c.w && u.y + u.h >= c.y + c.h).toBe(true);
        }
      }),
    );
  });

  it('clampBox rounds outward and clips to the image', () => {
    expect(clampBox(box(3.4, 1.5, 2.2, 1), 10, 10)).toEqual(box(3, 1, 3, 2));
    expect(clampBox(box(-5, -5, 8, 20), 10, 10)).toEqual(box(0, 0, 3, 10));
    expect(clampBox(box(12, 3, 5, 5), 10, 10)).toEqual(box(10, 3, 0, 5));
    expect(clampBox(box(2, 2, -3, 4), 10, 10)).toEqual(box(2, 2, 0, 4));
  });
});
