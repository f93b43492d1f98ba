/**
 * Per-sequence summaries of per-frame values (J or F), reproducing davis2017-evaluation
 * `utils.db_statistics`: mean M, recall O and decay D.
 */

export interface SequenceStatistics {
  /** nanmean of the values. */
  mean: number;
  /** Share of (non-NaN) values strictly above 0.5. */
  recall: number;
  /** Mean of the first temporal quarter minus mean of the last one. */
  decay: number;
}

/** Mean ignoring NaN (numpy nanmean); NaN when no value is left. */
export function nanMean(values: ArrayLike<number>): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (Number.isNaN(x)) continue;
    sum += x;
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

/**
 * Share of values strictly greater than `threshold` (DAVIS: 0.5), NaN values left out.
 * Difference from the reference: `np.nanmean(v > 0.5)` turns NaN into False first, so a NaN frame
 * counts as a miss there. DAVIS per-frame J and F are never NaN, so DAVIS numbers are unchanged;
 * in this app NaN means "not evaluated" and must not count against recall.
 */
export function recallAbove(values: ArrayLike<number>, threshold = 0.5): number {
  let hits = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (Number.isNaN(x)) continue;
    n++;
    if (x > threshold) hits++;
  }
  return n === 0 ? NaN : hits / n;
}

/** DAVIS uses four temporal bins. */
const DECAY_BINS = 4;

/**
 * Bin edges ids[k] = round(1 + k(N-1)/4 + 1e-10) - 1 for k = 0..4 (np.linspace(1, N, 5) rounded;
 * the 1e-10 turns numpy's round-half-to-even into round-half-up). Bin k covers ids[k]..ids[k+1]
 * inclusive, so neighbouring bins share their edge frame, as in the reference.
 *
 * Deliberate difference: the reference casts ids to uint8, so for N > 256 frames the edges wrap
 * modulo 256 and the bins point at the wrong frames (or come out empty). We keep them as integers.
 */
export function decayBinEdges(n: number): number[] {
  const ids: number[] = [];
  for (let k = 0; k <= DECAY_BINS; k++) ids.push(Math.round(1 + (k * (n - 1)) / DECAY_BINS + 1e-10) - 1);
  return ids;
}

/** D = nanmean(bin 0) - nanmean(bin 3); NaN for an empty sequence. */
export function decay(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  const ids = decayBinEdges(n);
  const bin = (k: number): number => nanMean(Array.prototype.slice.call(values, ids[k], ids[k + 1] + 1) as number[]);
  return bin(0) - bin(DECAY_BINS - 1);
}

export function sequenceStatistics(values: ArrayLike<number>): SequenceStatistics {
  return { mean: nanMean(values), recall: recallAbove(values), decay: decay(values) };
}
