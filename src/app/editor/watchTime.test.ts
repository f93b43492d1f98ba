import { describe, expect, it } from 'vitest';
import { nearestFrameIndex } from './watchTime';

describe('nearestFrameIndex', () => {
  const t = [0, 1, 2, 3, 4];
  it('finds the nearest sampled frame, the earlier on a tie', () => {
    expect(nearestFrameIndex(t, 0)).toBe(0);
    expect(nearestFrameIndex(t, 1.4)).toBe(1);
    expect(nearestFrameIndex(t, 1.5)).toBe(1);
    expect(nearestFrameIndex(t, 1.6)).toBe(2);
    expect(nearestFrameIndex(t, 9)).toBe(4);
    expect(nearestFrameIndex(t, -1)).toBe(0);
    expect(nearestFrameIndex([], 1)).toBe(-1);
  });
});
