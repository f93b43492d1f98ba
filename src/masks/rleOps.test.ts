import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCounts, encodeRle, parseCocoRle, rleCounts, type CocoRle } from './rle';
import { countsOverlap, mergeCounts, rleArea, rleIou, rleMerge, rleToBbox } from './rleOps';
import vectors from './testdata/cocoapi-vectors.json';
import { masksArb, naiveCounts, sq } from './testdata/naive';

const E = encodeRle(sq(5, 5, 1, 3, 1, 3), 5, 5);
const F = encodeRle(sq(5, 5, 1, 3, 2, 4), 5, 5);

describe('reference vectors §2 (E, F)', () => {
  it('iou(E, F) = 0.5; with F as crowd 2/3', () => {
    expect(rleIou(E, F)).toBe(0.5);
    expect(rleIou(E, F, true)).toBeCloseTo(0.666666666667, 11);
  });

  it('union merge -> [6,3,2,3,2,3,2,3,1] `63200000O`', () => {
    const u = rleMerge([E, F]);
    expect(Array.from(rleCounts(u))).toEqual([6, 3, 2, 3, 2, 3, 2, 3, 1]);
    expect(u.counts).toBe('63200000O');
  });

  it('intersection merge -> [11,3,2,3,6] `;3204`', () => {
    const i = rleMerge([E, F], true);
    expect(Array.from(rleCounts(i))).toEqual([11, 3, 2, 3, 6]);
    expect(i.counts).toBe(';3204');
  });

  it('empty vs empty is 0 (COCO), and no overlap is 0', () => {
    const empty = encodeRle(new Uint8Array(25), 5, 5);
    expect(rleIou(empty, empty)).toBe(0);
    expect(rleIou(empty, empty, true)).toBe(0);
    expect(rleIou(encodeRle(sq(5, 5, 0, 0, 0, 0), 5, 5), encodeRle(sq(5, 5, 4, 4, 4, 4), 5, 5))).toBe(0);
  });

  it('area and bbox of E and F', () => {
    expect(rleArea(E)).toBe(9);
    expect(rleToBbox(F)).toEqual([2, 1, 3, 3]);
  });
});

describe('cocoapi outputs (testdata/cocoapi-vectors.json)', () => {
  it.each(vectors.ops)('iou and merge on $h x $w', ({ h, w, a, b, extra, iou, iouCrowd, union3, intersection }) => {
    const A = parseCocoRle({ size: [h, w], counts: a });
    const B = parseCocoRle({ size: [h, w], counts: b });
    const X = parseCocoRle({ size: [h, w], counts: extra });
    expect(rleIou(A, B)).toBe(iou);
    expect(rleIou(A, B, true)).toBe(iouCrowd);
    expect(rleMerge([A, B, X]).counts).toBe(union3);
    expect(rleMerge([A, B], true).counts).toBe(intersection);
  });
});

describe('operations match pixel arithmetic (properties)', () => {
  it('area, overlap and iou', () => {
    fc.assert(
      fc.property(masksArb(2), fc.boolean(), ({ h, w, masks: [a, b] }, crowd) => {
        let inter = 0;
        let union = 0;
        let areaA = 0;
        for (let i = 0; i < a.length; i++) {
          if (a[i] || b[i]) union++;
          if (a[i] && b[i]) inter++;
          if (a[i]) areaA++;
        }
        const A = encodeRle(a, h, w);
        const B = encodeRle(b, h, w);
        expect(rleArea(A)).toBe(areaA);
        expect(countsOverlap(rleCounts(A), rleCounts(B))).toEqual({ intersection: inter, union });
        const expected = inter === 0 ? 0 : inter / (crowd ? areaA : union);
        expect(rleIou(A, B, crowd)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('merge is pixel OR / AND, and its counts stay canonical', () => {
    fc.assert(
      fc.property(masksArb(3), fc.boolean(), ({ h, w, masks }, intersect) => {
        const expected = masks[0].map((_, i) => {
          const on = masks.map((m) => m[i] !== 0);
          return (intersect ? on.every(Boolean) : on.some(Boolean)) ? 1 : 0;
        });
        const merged = mergeCounts(
          masks.map((m) => encodeCounts(m, h, w)),
          intersect,
        );
        expect(Array.from(merged)).toEqual(naiveCounts(expected, h, w));
        const rles: CocoRle[] = masks.map((m) => encodeRle(m, h, w));
        expect(rleMerge(rles, intersect)).toEqual(encodeRle(expected, h, w));
      }),
      { numRuns: 300 },
    );
  });

  it('merging one RLE returns it unchanged', () => {
    expect(rleMerge([E])).toEqual(E);
  });

  it('refuses masks of different sizes and empty lists', () => {
    const other = encodeRle(new Uint8Array(24), 4, 6);
    expect(() => rleIou(E, other)).toThrow(/sizes differ/);
    expect(() => rleMerge([E, other])).toThrow(/sizes differ/);
    expect(() => rleMerge([])).toThrow(/at least one/);
  });
});
