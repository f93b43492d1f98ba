import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linearSumAssignment } from './linearSumAssignment';

const total = (cost: number[][], rows: number[], cols: number[]): number => rows.reduce((s, r, k) => s + cost[r][cols[k]], 0);

/** Best total over every injective assignment of the smaller side (brute force). */
function bruteForce(cost: number[][], maximize: boolean): number {
  const nr = cost.length;
  const nc = cost[0].length;
  const tall = nr > nc;
  const n = tall ? nc : nr;
  const m = tall ? nr : nc;
  let best = maximize ? -Infinity : Infinity;
  const used = new Array<boolean>(m).fill(false);
  const walk = (i: number, acc: number): void => {
    if (i === n) {
      best = maximize ? Math.max(best, acc) : Math.min(best, acc);
      return;
    }
    for (let j = 0; j < m; j++) {
      if (used[j]) continue;
      used[j] = true;
      walk(i + 1, acc + (tall ? cost[j][i] : cost[i][j]));
      used[j] = false;
    }
  };
  walk(0, 0);
  return best;
}

describe('linearSumAssignment (scipy.optimize.linear_sum_assignment)', () => {
  it('solves the example of scipy’s documentation', () => {
    const cost = [
      [4, 1, 3],
      [2, 0, 5],
      [3, 2, 2],
    ];
    expect(linearSumAssignment(cost)).toEqual({ rows: [0, 1, 2], cols: [1, 0, 2] });
  });

  it('returns the identity for a constant matrix, and tall matrices sorted by row (as scipy)', () => {
    expect(linearSumAssignment([[1, 1], [1, 1]])).toEqual({ rows: [0, 1], cols: [0, 1] });
    // 3 rows, 2 columns, maximizing: row 2 fits column 0 best, row 0 column 1.
    const tall = [
      [0.1, 0.9],
      [0.2, 0.3],
      [0.8, 0.1],
    ];
    expect(linearSumAssignment(tall, true)).toEqual({ rows: [0, 2], cols: [1, 0] });
    // Equal rows (padded empty objects): scipy gives these indices (checked with scipy 1.17).
    expect(linearSumAssignment([[0.5, 0.2], [0, 0], [0, 0]], true)).toEqual({ rows: [0, 1], cols: [0, 1] });
  });

  it('finds an optimal total on random matrices with ties', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 25, maxLength: 25 }),
        fc.boolean(),
        (nr, nc, values, maximize) => {
          const cost = Array.from({ length: nr }, (_, i) => Array.from({ length: nc }, (_, j) => values[i * 5 + j] / 4));
          const { rows, cols } = linearSumAssignment(cost, maximize);
          expect(rows.length).toBe(Math.min(nr, nc));
          expect([...rows].sort((a, b) => a - b)).toEqual(rows);
          expect(new Set(cols).size).toBe(cols.length);
          expect(total(cost, rows, cols)).toBeCloseTo(bruteForce(cost, maximize), 12);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses NaN', () => {
    expect(() => linearSumAssignment([[NaN]])).toThrow(/invalid numeric entries/);
  });
});
