import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaskFormatError } from './errors';
import { countsToString, stringToCounts } from './rleString';

describe('countsToString / stringToCounts: reference vectors §2', () => {
  const vectors: [number[], string][] = [
    [[2, 3, 1], '231'],
    [[0, 1, 3], '013'],
    [[16], '`0'],
    [[0, 9], '09'],
    [[6, 3, 2, 3, 2, 3, 6], '6320004'],
    [[11, 3, 2, 3, 2, 3, 1], ';32000O'],
    [[100], 'T3'],
    [[100, 50, 50], 'T3b1b1'],
    [[5, 10, 20, 3], '5:d0I'],
    [[31], 'o0'],
    [[32], 'P1'],
    [[1000], 'Xo0'],
    [[100000], 'PeQ3'],
    [[3, 300, 3, 300, 3, 30], '3\\9300bG'],
    [[6, 3, 2, 3, 2, 3, 2, 3, 1], '63200000O'],
    [[11, 3, 2, 3, 6], ';3204'],
  ];
  it.each(vectors)('%j <-> %s', (counts, s) => {
    expect(countsToString(counts)).toBe(s);
    expect(Array.from(stringToCounts(s))).toEqual(counts);
    expect(Array.from(stringToCounts(s, counts.reduce((a, b) => a + b, 0)))).toEqual(counts);
  });

  it('deltas start at i > 2, not i >= 2 (the third count is absolute)', () => {
    // [5, 10, 20, 3]: 20 is written as 20 ("d0"), only 3 becomes 3 - 10 = -7 ("I").
    expect(countsToString([5, 10, 20])).toBe('5:d0');
    expect(countsToString([5, 10, 20, 3]).endsWith('I')).toBe(true);
  });

  it('the empty list is the empty string', () => {
    expect(countsToString([])).toBe('');
    expect(stringToCounts('').length).toBe(0);
  });
});

describe('round trip (property)', () => {
  it('stringToCounts(countsToString(c)) = c for any counts below 2^31', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(40), fc.nat(0x7fffffff), fc.constant(0)), { maxLength: 60 }), (counts) => {
        expect(Array.from(stringToCounts(countsToString(counts)))).toEqual(counts);
      }),
      { numRuns: 500 },
    );
  });

  it('uses only the characters 0..o', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1 << 26), { maxLength: 30 }), (counts) => {
        expect(countsToString(counts)).toMatch(/^[0-o]*$/);
      }),
    );
  });

  it('refuses counts it cannot represent', () => {
    expect(() => countsToString([-1])).toThrow(RangeError);
    expect(() => countsToString([1.5])).toThrow(RangeError);
    expect(() => countsToString([2 ** 31])).toThrow(RangeError);
  });
});

describe('stringToCounts on hostile input', () => {
  const bad = (s: string, total?: number) => () => stringToCounts(s, total);

  it('rejects characters outside 0..o, naming the position', () => {
    expect(bad('23 1')).toThrow(MaskFormatError);
    expect(bad('23 1')).toThrow(/invalid character " " at position 2/);
    expect(bad('p')).toThrow(/invalid character/);
    expect(bad('/')).toThrow(/invalid character/);
    expect(bad('0é')).toThrow(/invalid character/);
  });

  it('rejects a string that stops in the middle of a number', () => {
    expect(bad('P')).toThrow(/ends in the middle of a number/); // 'P' has the "more" bit
    expect(bad('T3b')).toThrow(/ends in the middle/);
  });

  it('rejects negative runs', () => {
    expect(bad('@')).toThrow(/run 0 is negative \(-16\)/); // one group with the sign bit
    expect(bad('23O')).toThrow(/run 2 is negative \(-1\)/); // the third count is absolute: 'O' is -1
    expect(bad('111N')).toThrow(/run 3 is negative \(-1\)/); // the fourth is 1 + delta 'N' (-2)
  });

  it('rejects numbers with more than 7 groups', () => {
    expect(bad('oooooooo0')).toThrow(/more than 7 groups/);
  });

  it('fails fast when runs overshoot h * w, and when they fall short', () => {
    expect(bad('T3', 50)).toThrow(/more than the 50 pixels/);
    expect(bad('T3', 101)).toThrow(/cover 100 pixels but the mask has 101/);
  });

  it('refuses strings with more runs than pixels before allocating', () => {
    const huge = '1'.repeat(5_000_000);
    const t0 = performance.now();
    expect(bad(huge, 100)).toThrow(/holds 5000000 runs, far more than a mask of 100 pixels/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('stops at the first overshooting run of a long string', () => {
    // One huge first run, then millions of runs that would never be read.
    const s = countsToString([1 << 26]) + '1'.repeat(3_000_000);
    expect(bad(s, 1 << 26)).toThrow(/more than the 67108864 pixels/);
  });

  it('rejects non-strings', () => {
    expect(() => stringToCounts(42 as unknown as string)).toThrow(MaskFormatError);
  });
});
