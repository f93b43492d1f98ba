import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskOfLabel, mergeMasks } from './binaryMasks';
import { masksArb } from './testdata/naive';

describe('binary masks', () => {
  it('maskOfLabel picks one label as 0/1', () => {
    const map = { width: 3, height: 1, data: Uint8Array.from([2, 1, 2]) };
    expect(Array.from(maskOfLabel(map, 2))).toEqual([1, 0, 1]);
  });

  it('mergeMasks is pixel OR / AND over any number of masks (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }).chain((k) => masksArb(k, [0, 1, 7])), fc.boolean(), ({ masks }, intersect) => {
        const expected = masks[0].map((_, i) => {
          const on = masks.map((m) => m[i] !== 0);
          return (intersect ? on.every(Boolean) : on.some(Boolean)) ? 1 : 0;
        });
        expect(mergeMasks(masks, intersect)).toEqual(expected);
      }),
    );
  });

  it('refuses no masks and masks of different lengths', () => {
    expect(() => mergeMasks([])).toThrow(/at least one/);
    expect(() => mergeMasks([new Uint8Array(3), new Uint8Array(4)])).toThrow(/differ in length/);
  });
});
