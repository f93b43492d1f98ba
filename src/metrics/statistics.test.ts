import { describe, expect, it } from 'vitest';
import { decay, decayBinEdges, nanMean, recallAbove, sequenceStatistics } from './statistics';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

describe('DAVIS statistics (vectors §1)', () => {
  it.each([
    [[1, 0.9, 0.8, 0.4, 0.2, 0.1], 0.566666666667, 0.5, 0.8],
    [[0.7], 0.7, 1, 0],
    [[0.9, 0.3], 0.6, 0.5, 0.6],
    [[0.6, 0.5, 0.4], 0.5, 0.333333333333, 0.15],
    [[0.5, 0.5, 0.5, 0.5, 1, 1, 1, 1], 0.75, 0.5, -0.5],
  ])('%j', (v, mean, recall, d) => {
    const s = sequenceStatistics(v);
    close(s.mean, mean);
    close(s.recall, recall);
    close(s.decay, d);
  });

  it('recall is strict: exactly 0.5 is not recalled', () => {
    expect(recallAbove([0.5, 0.5000001])).toBe(0.5);
  });

  it('ignores NaN in mean, recall and decay bins', () => {
    close(nanMean([NaN, 0.2, 0.4]), 0.3);
    expect(recallAbove([NaN, 0.9, 0.1])).toBe(0.5);
    expect(Number.isNaN(nanMean([NaN]))).toBe(true);
    expect(Number.isNaN(nanMean([]))).toBe(true);
  });

  it('is NaN on an empty sequence', () => {
    const s = sequenceStatistics([]);
    expect([s.mean, s.recall, s.decay].every(Number.isNaN)).toBe(true);
  });

  it('keeps bin edges right beyond 256 frames (the reference uint8 cast wraps them)', () => {
    expect(decayBinEdges(1000)).toEqual([0, 250, 500, 749, 999]);
    // uint8 would give [0, 250, 244, 237, 231]: check the last bin really is the last quarter.
    const v = Array.from({ length: 1000 }, (_, i) => (i < 500 ? 1 : 0));
    close(decay(v), 1);
  });

  it('bins a 3-frame sequence as numpy does (round half up through the 1e-10)', () => {
    expect(decayBinEdges(3)).toEqual([0, 1, 1, 2, 2]);
    expect(decayBinEdges(1)).toEqual([0, 0, 0, 0, 0]);
  });
});
