import { describe, expect, it } from 'vitest';
import { npMean, npNanMean, pairwiseSum } from './numpySum';

describe('numpy pairwise sums (values printed by numpy 2.4)', () => {
  it('adds fewer than 8 values in order', () => {
    expect(pairwiseSum([0.1, 0.2, 0.3])).toBe(0.1 + 0.2 + 0.3);
  });

  it('groups 8..128 values in eight partial sums, as numpy does', () => {
    const a = [...Array.from({ length: 19 }, (_, k) => 0.1 * (k + 1)), ...Array(7).fill(1e-3)];
    // np.sum(a) = 19.007 where a plain left-to-right sum gives 19.00700000000001.
    expect(pairwiseSum(a)).toBe(19.007);
    expect(a.reduce((s, x) => s + x, 0)).toBe(19.00700000000001);
  });

  it('splits longer runs recursively and means divide by n', () => {
    const b = Array.from({ length: 180 }, (_, k) => [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9][k % 9]);
    expect(npMean(b)).toBe(0.5);
    expect(npMean([])).toBeNaN();
  });

  it('nanmean leaves NaN out of sum and count', () => {
    expect(npNanMean([1, NaN, 0])).toBe(0.5);
    expect(npNanMean([NaN])).toBeNaN();
  });
});
