/**
 * Sums and means exactly as numpy computes them, so statistics can equal davis2017-evaluation's to
 * the last bit (docs/metrics.md "Per-object VOS"). numpy's add.reduce over a contiguous float64
 * array is a pairwise sum: fewer than 8 values are added in order; up to 128 values in eight
 * interleaved partial sums combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the remainder in
 * order; longer runs are split in two at a multiple of 8 below n/2 and summed recursively.
 * (numpy/_core/src/umath/loops_utils.h.src, pairwise_sum; checked against numpy 2.4.)
 */

const BLOCK = 128;

/** numpy's pairwise sum of values[start..end). */
export function pairwiseSum(values: ArrayLike<number>, start = 0, end = values.length): number {
  const n = end - start;
  if (n < 8) {
    let res = 0;
    for (let i = start; i < end; i++) res += values[i];
    return res;
  }
  if (n <= BLOCK) {
    const r = [values[start], values[start + 1], values[start + 2], values[start + 3], values[start + 4], values[start + 5], values[start + 6], values[start + 7]];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let k = 0; k < 8; k++) r[k] += values[start + i + k];
    }
    // prettier-ignore
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res += values[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(values, start, start + n2) + pairwiseSum(values, start + n2, end);
}

/** np.mean of a 1-D float64 array: pairwise sum / n (NaN when empty or when a value is NaN). */
export function npMean(values: ArrayLike<number>, start = 0, end = values.length): number {
  return pairwiseSum(values, start, end) / (end - start);
}

/** np.nanmean: NaN values replaced by 0 in the pairwise sum, divided by the number of other values. */
export function npNanMean(values: ArrayLike<number>, start = 0, end = values.length): number {
  let nan = 0;
  for (let i = start; i < end; i++) if (Number.isNaN(values[i])) nan++;
  if (nan === 0) return npMean(values, start, end);
  const clean = new Float64Array(end - start);
  for (let i = start; i < end; i++) clean[i - start] = Number.isNaN(values[i]) ? 0 : values[i];
  return pairwiseSum(clean) / (end - start - nan);
}
