import { describe, expect, it } from 'vitest';
import { changes, paintTable } from './paintRule';

/** What the table does to background, actionable, transformed and an imported label (4). */
const on = (t: Uint8Array) => [t[0], t[1], t[2], t[4]];

describe('paintTable (the protect rule)', () => {
  it('painting with protect on changes only background (and the same class)', () => {
    expect(on(paintTable(1, true, 1))).toEqual([1, 1, 2, 4]);
    expect(on(paintTable(2, true, 2))).toEqual([2, 1, 2, 4]);
  });

  it('painting with protect off changes everything', () => {
    expect(on(paintTable(1, false, 1))).toEqual([1, 1, 1, 1]);
    expect(on(paintTable(2, false, 2))).toEqual([2, 2, 2, 2]);
  });

  it('erasing removes every label, protect on or off: an eraser erases, protect governs painting', () => {
    expect(on(paintTable(0, true, 1))).toEqual([0, 0, 0, 0]);
    expect(on(paintTable(0, true, 2))).toEqual([0, 0, 0, 0]);
    expect(on(paintTable(0, true, 0))).toEqual([0, 0, 0, 0]);
    expect(on(paintTable(0, false, 1))).toEqual([0, 0, 0, 0]);
  });

  it('changes() tells whether a uniform region would change', () => {
    expect(changes(paintTable(1, true, 1), 0)).toBe(true);
    expect(changes(paintTable(1, true, 1), 2)).toBe(false);
    expect(changes(paintTable(1, false, 1), 1)).toBe(false);
  });
});
