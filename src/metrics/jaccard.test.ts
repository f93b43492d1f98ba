import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../masks/labelMap';
import { maskArea, maskOfLabels, voidMaskOf } from './binaryMask';
import { iouOrOne, jaccard, overlap } from './jaccard';
import { blank, row, sq } from '../testing/metricFixtures';

describe('jaccard', () => {
  it('counts intersection and union outside void', () => {
    const g = sq(10, 10, 2, 5, 2, 5);
    const p = sq(10, 10, 2, 5, 3, 6);
    expect(overlap(g, p)).toEqual({ intersection: 12, union: 20 });
    expect(overlap(g, p, sq(10, 10, 0, 9, 0, 2))).toEqual({ intersection: 12, union: 16 });
  });

  it('scores 1 when the union is empty, including when void covers everything', () => {
    expect(iouOrOne(0, 0)).toBe(1);
    expect(jaccard(blank(3, 3), blank(3, 3))).toBe(1);
    expect(jaccard(blank(3, 3, 1), blank(3, 3), blank(3, 3, 1))).toBe(1);
  });

  it('full frame vs full frame is 1, full frame vs empty is 0', () => {
    expect(jaccard(blank(7, 9, 1), blank(7, 9, 1))).toBe(1);
    expect(jaccard(blank(7, 9, 1), blank(7, 9))).toBe(0);
  });

  it('treats any nonzero byte as foreground', () => {
    const g = { width: 3, height: 1, data: Uint8Array.from([255, 1, 0]) };
    const p = { width: 3, height: 1, data: Uint8Array.from([7, 0, 0]) };
    expect(jaccard(g, p)).toBe(0.5);
  });
});

describe('binary mask helpers', () => {
  it('extracts label masks and void', () => {
    const map = row([0, 1, 2, 255, 4, 1]);
    expect(Array.from(maskOfLabels(map, [1, 2]).data)).toEqual([0, 1, 1, 0, 0, 1]);
    expect(Array.from(voidMaskOf(map).data)).toEqual([0, 0, 0, 1, 0, 0]);
    expect(maskArea(maskOfLabels(map, [1]))).toBe(2);
    expect(maskArea(maskOfLabels(createLabelMap(4, 4), [1]))).toBe(0);
  });
});
