import { describe, expect, it } from 'vitest';
import { encodeRle } from '../masks/rle';
import { decodeCounts, rleArea } from './rleArea';
import { countsToString, rleFromPicture } from '../testing/storeFixtures';

describe('decodeCounts', () => {
  it('decodes a hand-encoded string with multi-chunk and negative deltas', () => {
    // runs [5, 3, 100, 2]: 100 needs two chunks ("T3"); the 4th is stored as 2 - 3 = -1 ("O").
    expect(decodeCounts('53T3O')).toEqual([5, 3, 100, 2]);
  });

  it('round-trips large counts through the independent test encoder', () => {
    const runs = [0, 67_108_864 - 7, 3, 4, 0];
    expect(decodeCounts(countsToString(runs))).toEqual(runs);
  });

  it('rejects characters outside the alphabet and truncated counts', () => {
    expect(() => decodeCounts('5 3')).toThrow(RangeError);
    expect(() => decodeCounts('T')).toThrow(/truncated/);
  });
});

describe('rleArea', () => {
  it('sums the odd runs (the set pixels), column-major', () => {
    const rle = rleFromPicture(['.#..', '##..', '...#']);
    expect(rle.size).toEqual([3, 4]);
    expect(rleArea(rle)).toBe(4);
  });

  it('handles empty and full masks', () => {
    expect(rleArea(rleFromPicture(['...', '...']))).toBe(0);
    expect(rleArea(rleFromPicture(['###', '###']))).toBe(6);
  });

  it('refuses counts that do not cover the size exactly', () => {
    expect(() => rleArea({ size: [2, 3], counts: countsToString([1, 2]) })).toThrow(/cover 3 pixels/);
  });

  it('agrees with masks/rle encodeRle on random label maps', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let t = 0; t < 20; t++) {
      const h = 1 + Math.floor(rand() * 40);
      const w = 1 + Math.floor(rand() * 40);
      const mask = new Uint8Array(h * w);
      let set = 0;
      for (let i = 0; i < mask.length; i++) {
        if (rand() < 0.3) {
          mask[i] = 1;
          set++;
        }
      }
      expect(rleArea(encodeRle(mask, h, w))).toBe(set);
    }
  });
});
