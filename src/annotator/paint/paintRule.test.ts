import { describe, expect, it } from 'vitest';
import { changes, paintTable } from './paintRule';

/** What the table does to background, actionable, transformed and an imported label (4). */
const on = (t: Uint8Array) => [t[0], t[1], t[2], t[4]];

describe('paintTable (the protect rule)', () => {
  it('painting with protect on changes only background (and the same class)', () => {
    expect(on(paintTable(1, true))).toEqual([1, 1, 2, 4]);
    expect(on(paintTable(2, true))).toEqual([2, 1, 2, 4]);
  });

  it('painting with protect off changes everything', () => {
    expect(on(paintTable(1, false))).toEqual([1, 1, 1, 1]);
    expect(on(paintTable(2, false))).toEqual([2, 2, 2, 2]);
  });

  it('erasing removes every label, protect on or off: an eraser erases, protect governs painting', () => {
    expect(on(paintTable(0, true))).toEqual([0, 0, 0, 0]);
    expect(on(paintTable(0, false))).toEqual([0, 0, 0, 0]);
  });

  it('never changes a locked value, painting or erasing, protect on or off; painting a locked value changes nothing', () => {
    expect(on(paintTable(1, false, [2]))).toEqual([1, 1, 2, 1]);
    expect(on(paintTable(0, true, [2, 4]))).toEqual([0, 0, 2, 4]);
    expect(on(paintTable(2, false, [2]))).toEqual([0, 1, 2, 4]);
  });

  it('changes() tells whether a uniform region would change', () => {
    expect(changes(paintTable(1, true), 0)).toBe(true);
    expect(changes(paintTable(1, true), 2)).toBe(false);
    expect(changes(paintTable(1, false), 1)).toBe(false);
  });
});
