import { describe, expect, it } from 'vitest';
import { DEFAULT_SPAN_RULES, heldOutTriples, planSpans } from './spans';

const k = (frame: number, present = true) => ({ frame, present });

describe("VISOR's interpolation rules", () => {
  it('fills between keyframes where the object is on both, in frame order, skipping adjacent keyframes', () => {
    expect(planSpans([k(10), k(0), k(4), k(5)], false)).toEqual([
      { a: 0, b: 4, kind: 'fill', direction: 'both' },
      { a: 5, b: 10, kind: 'fill', direction: 'both' },
    ]);
  });

  it('does not interpolate an object present on only one keyframe, except a hand, carried from the one that has it', () => {
    const keys = [k(0), k(5, false), k(9)];
    expect(planSpans(keys, false)).toEqual([
      { a: 0, b: 5, kind: 'skip', reason: 'one-keyframe' },
      { a: 5, b: 9, kind: 'skip', reason: 'one-keyframe' },
    ]);
    expect(planSpans(keys, true)).toEqual([
      { a: 0, b: 5, kind: 'fill', direction: 'forward' },
      { a: 5, b: 9, kind: 'fill', direction: 'backward' },
    ]);
    expect(planSpans(keys, true, { ...DEFAULT_SPAN_RULES, handsAlways: false })[0]).toEqual({ a: 0, b: 5, kind: 'skip', reason: 'one-keyframe' });
    expect(planSpans(keys, false, { ...DEFAULT_SPAN_RULES, requireBothKeyframes: false })[0]).toEqual({ a: 0, b: 5, kind: 'fill', direction: 'forward' });
  });

  it('skips spans longer than the limit and spans where the object is absent on both', () => {
    const rules = { ...DEFAULT_SPAN_RULES, maxFramesBetween: 3 };
    expect(planSpans([k(0), k(4), k(9)], false, rules)).toEqual([
      { a: 0, b: 4, kind: 'fill', direction: 'both' },
      { a: 4, b: 9, kind: 'skip', reason: 'too-long' },
    ]);
    expect(planSpans([k(0, false), k(4, false)], true)).toEqual([{ a: 0, b: 4, kind: 'skip', reason: 'absent' }]);
  });

  it('holds out the middle of three keyframes that all have the object', () => {
    expect(heldOutTriples([k(0), k(4), k(8), k(12, false), k(16)])).toEqual([[0, 4, 8]]);
  });
});
