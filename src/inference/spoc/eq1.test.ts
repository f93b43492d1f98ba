import { describe, expect, it } from 'vitest';
import { labelProposal, SPOC_EQ1_DEFAULTS } from './eq1';
import { cosine, l2Normalize, stateScores } from './similarity';

describe('labelProposal (SPOC Eq. 1)', () => {
  const p = { tau: 0.5, delta: 0.01 };

  it('applies the rules in order', () => {
    expect(labelProposal(0.2, 0.2, p)).toBe('background'); // sum 0.4 < tau, although equal
    expect(labelProposal(0.3, 0.305, p)).toBe('ambiguous');
    expect(labelProposal(0.32, 0.28, p)).toBe('actionable');
    expect(labelProposal(0.28, 0.32, p)).toBe('transformed');
    // Rule 1 wins over a large difference.
    expect(labelProposal(0.45, 0.0, p)).toBe('background');
  });

  it('uses strict comparisons on the boundaries', () => {
    expect(labelProposal(0.25, 0.25, { tau: 0.5, delta: 0.01 })).toBe('ambiguous'); // sum == tau: not background
    expect(labelProposal(0.5, 0.25, { tau: 0.75, delta: 0.25 })).toBe('actionable'); // |diff| == delta: not ambiguous
    expect(labelProposal(0.25, 0.5, { tau: 0.75, delta: 0.25 })).toBe('transformed');
    expect(labelProposal(0.3, 0.3, { tau: 0.5, delta: 0 })).toBe('transformed'); // exact tie without a margin falls to rule 4
  });

  it('defaults to tau 0.5, delta 0.01 and refuses non-finite input', () => {
    expect(SPOC_EQ1_DEFAULTS).toEqual({ tau: 0.5, delta: 0.01 });
    expect(labelProposal(0.3, 0.25)).toBe('actionable');
    expect(() => labelProposal(NaN, 0.3)).toThrow(RangeError);
    expect(() => labelProposal(0.3, 0.3, { tau: NaN, delta: 0 })).toThrow(RangeError);
  });
});

describe('similarity', () => {
  it('is the cosine of normalised embeddings, 0 for a zero vector', () => {
    const a = Float32Array.from([3, 4]);
    expect([...l2Normalize(a)].map((v) => +v.toFixed(6))).toEqual([0.6, 0.8]);
    expect(cosine(a, Float32Array.from([6, 8]))).toBeCloseTo(1);
    expect(cosine(a, Float32Array.from([-4, 3]))).toBeCloseTo(0);
    expect(cosine(a, new Float32Array(2))).toBe(0);
    expect(() => cosine(a, new Float32Array(3))).toThrow(/differ/);
    expect(stateScores(a, Float32Array.from([1, 0]), Float32Array.from([0, 1]))).toEqual({ sAct: expect.closeTo(0.6) as number, sTrf: expect.closeTo(0.8) as number });
  });
});
