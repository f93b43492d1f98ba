import { describe, expect, it } from 'vitest';
import type { FramePhase } from '../store/types';
import { changeEndsAt, changeStartsAt, phaseMarkers, rangeBounds, rangePhaseTarget } from './phases';

/** 'i' initial, 't' transitioning, 'e' end, '-' none. */
const parse = (s: string): (FramePhase | undefined)[] => [...s].map((c) => ({ i: 'initial', t: 'transitioning', e: 'end' } as const)[c as 'i'] ?? undefined);
const show = (phases: readonly (FramePhase | undefined)[]) => phases.map((p) => (p ? p[0] : '-')).join('');
/** Phases after applying the changes. */
function after(before: string, changes: Map<number, FramePhase | undefined>): string {
  const p = parse(before);
  for (const [k, v] of changes) p[k] = v;
  return show(p);
}

describe('change markers', () => {
  it('"starts here" makes the frames before initial and the rest transitioning', () => {
    expect(after('----------', changeStartsAt(parse('----------'), 4))).toBe('iiiitttttt');
  });

  it('"ends here" after a start makes the frames between transitioning and from here on end', () => {
    const start = after('----------', changeStartsAt(parse('----------'), 2));
    expect(start).toBe('iitttttttt');
    expect(after(start, changeEndsAt(parse(start), 7))).toBe('iittttteee');
  });

  it('"starts here" keeps an end marker after it, and moves the start', () => {
    expect(after('iitttteeee', changeStartsAt(parse('iitttteeee'), 4))).toBe('iiiitteeee');
    // A start after the end drops the end: the change cannot end before it starts.
    expect(after('iitttteeee', changeStartsAt(parse('iitttteeee'), 8))).toBe('iiiiiiiitt');
  });

  it('"ends here" without a start sets only the end and clears earlier "end" frames', () => {
    expect(after('ii-e------', changeEndsAt(parse('ii-e------'), 6))).toBe('ii----eeee');
  });

  it('returns only the frames that change', () => {
    expect([...changeStartsAt(parse('iitttt'), 2).keys()]).toEqual([]);
    expect([...changeStartsAt(parse('iitttt'), 3).keys()]).toEqual([2]);
  });

  it('reads the markers from the phases', () => {
    expect(phaseMarkers(parse('iitttteeee'))).toEqual({ start: 2, end: 6 });
    expect(phaseMarkers(parse('----------'))).toEqual({ start: null, end: null });
  });
});

describe('timeline ranges', () => {
  it('bounds in either direction', () => {
    expect(rangeBounds({ anchor: 7, head: 3 })).toEqual([3, 7]);
    expect(rangeBounds({ anchor: 2, head: 2 })).toEqual([2, 2]);
  });

  it('a phase button sets the range, or clears it when every frame already has that phase', () => {
    expect(rangePhaseTarget(parse('iitt-'), [1, 3], 'transitioning')).toBe('transitioning');
    expect(rangePhaseTarget(parse('iitt-'), [2, 3], 'transitioning')).toBeUndefined();
  });
});
