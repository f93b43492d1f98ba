import { describe, expect, it } from 'vitest';
import { distanceWeights, fuseDirections, maskIou } from './fuse';

const m = (...bits: number[]) => Uint8Array.from(bits);

describe('distance weights', () => {
  it('count the nearer keyframe more: a=0, b=4', () => {
    expect(distanceWeights(0, 4, 1)).toEqual({ forward: 0.75, backward: 0.25 });
    expect(distanceWeights(0, 4, 2)).toEqual({ forward: 0.5, backward: 0.5 });
    expect(distanceWeights(0, 4, 3)).toEqual({ forward: 0.25, backward: 0.75 });
    expect(() => distanceWeights(0, 4, 4)).toThrow(RangeError);
  });
});

describe('fusing the two directions', () => {
  // Pixels: both say yes, only forward, only backward, neither.
  const fwd = m(1, 1, 0, 0);
  const bwd = m(1, 0, 1, 0);

  it('vote: near a keyframe its direction wins; at the middle either direction keeps a pixel', () => {
    expect([...fuseDirections({ mask: fwd, confidence: 1 }, { mask: bwd, confidence: 1 }, distanceWeights(0, 4, 1), 'vote').mask]).toEqual([1, 1, 0, 0]);
    expect([...fuseDirections({ mask: fwd, confidence: 1 }, { mask: bwd, confidence: 1 }, distanceWeights(0, 4, 3), 'vote').mask]).toEqual([1, 0, 1, 0]);
    expect([...fuseDirections({ mask: fwd, confidence: 1 }, { mask: bwd, confidence: 1 }, distanceWeights(0, 4, 2), 'vote').mask]).toEqual([1, 1, 1, 0]);
  });

  it('soft: a direction with low confidence gives way even when nearer', () => {
    // t=1: w = 0.75 / 0.25; confidences 0.2 / 0.9 → 0.15 vs 0.225: backward wins its pixels.
    const r = fuseDirections({ mask: fwd, confidence: 0.2 }, { mask: bwd, confidence: 0.9 }, distanceWeights(0, 4, 1), 'soft');
    expect([...r.mask]).toEqual([1, 0, 1, 0]);
    expect(r.area).toBe(2);
    // Vote ignores the confidences.
    expect([...fuseDirections({ mask: fwd, confidence: 0.2 }, { mask: bwd, confidence: 0.9 }, distanceWeights(0, 4, 1), 'vote').mask]).toEqual([1, 1, 0, 0]);
  });

  it('confidence: weighted, lowered by disagreement at the middle and not at the ends', () => {
    // IoU(fwd, bwd) = 1/3. t=2: (0.5·0.8 + 0.5·0.6) · (1 − 2·0.5·(2/3)) = 0.7 · (1/3).
    const mid = fuseDirections({ mask: fwd, confidence: 0.8 }, { mask: bwd, confidence: 0.6 }, distanceWeights(0, 4, 2));
    expect(mid.agreement).toBeCloseTo(1 / 3, 12);
    expect(mid.confidence).toBeCloseTo(0.7 / 3, 12);
    // t=1: (0.75·0.8 + 0.25·0.6) · (1 − 2·0.25·(2/3)) = 0.75 · (2/3) = 0.5.
    expect(fuseDirections({ mask: fwd, confidence: 0.8 }, { mask: bwd, confidence: 0.6 }, distanceWeights(0, 4, 1)).confidence).toBeCloseTo(0.5, 12);
    // Agreeing directions: the weighted confidence itself.
    expect(fuseDirections({ mask: fwd, confidence: 0.8 }, { mask: fwd, confidence: 0.6 }, distanceWeights(0, 4, 1)).confidence).toBeCloseTo(0.75, 12);
  });

  it('IoU of two empty masks is 1', () => {
    expect(maskIou(m(0, 0), m(0, 0))).toBe(1);
    expect(maskIou(m(1, 0), m(0, 1))).toBe(0);
  });
});
