import { describe, expect, it } from 'vitest';
import { barHeights, largestArea } from './Timeline';

describe('timeline sparkline bars', () => {
  it('scale by the given area, stacked', () => {
    expect(barHeights({ actArea: 30, trfArea: 20 }, 100)).toEqual({ act: 30, trf: 20 });
  });

  it('fill the cell, in proportion, when a frame is painted past the scale (the others keep theirs)', () => {
    expect(barHeights({ actArea: 150, trfArea: 50 }, 100)).toEqual({ act: 75, trf: 25 });
    expect(barHeights({ actArea: 10, trfArea: 0 }, 100)).toEqual({ act: 10, trf: 0 });
  });

  it('an empty frame and a zero scale give no bar, never NaN', () => {
    expect(barHeights({ actArea: 0, trfArea: 0 }, 0)).toEqual({ act: 0, trf: 0 });
  });
});

describe('largestArea', () => {
  it('is the largest total of both states, at least 1 (no division by zero for an empty clip)', () => {
    expect(largestArea([{ actArea: 3, trfArea: 4 }, { actArea: 6, trfArea: 0 }])).toBe(7);
    expect(largestArea([])).toBe(1);
  });
});
