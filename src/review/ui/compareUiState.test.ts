import { describe, expect, it } from 'vitest';
import { afterChoice, choiceOn, comparedPair, FRESH_CHOICE, type CompareChoice } from './compareUiState';

const made = { clipId: 'c1', sideBySide: true, a: 'gt', b: 'pred:unet', disputes: true } as const;

describe('the compared pair has one owner', () => {
  it('keeps the choices on the clip they were made on, and starts afresh on any other', () => {
    expect(choiceOn(made, 'c1')).toEqual({ sideBySide: true, a: 'gt', b: 'pred:unet', disputes: true });
    expect(choiceOn(made, 'c2')).toEqual(FRESH_CHOICE);
    expect(choiceOn({ ...FRESH_CHOICE, clipId: null }, 'c1')).toEqual(FRESH_CHOICE);
  });

  it('a first choice on another clip drops the last clip\'s choices instead of carrying them over', () => {
    expect(afterChoice(made, 'c2', { sideBySide: true })).toEqual({ ...FRESH_CHOICE, sideBySide: true, clipId: 'c2' });
    expect(afterChoice(made, 'c1', { disputes: false })).toEqual({ ...made, disputes: false });
  });

  it('gives both views the same B from the same sources: chosen, else a second annotation, else the review prediction, else the first', () => {
    const sources = ['gt', 'pred:b', 'pred:a', 'proposal'];
    const pick = (choice: Partial<CompareChoice>, srcs: string[], preferred: `pred:${string}` | null) => comparedPair({ ...FRESH_CHOICE, ...choice }, srcs, preferred).b;
    expect(comparedPair(FRESH_CHOICE, sources, null).options).toEqual(['pred:a', 'pred:b', 'proposal']);
    expect(pick({}, sources, null)).toBe('pred:a');
    expect(pick({}, sources, 'pred:b')).toBe('pred:b');
    expect(pick({}, [...sources, 'ann:two'], 'pred:b')).toBe('ann:two');
    expect(pick({ b: 'proposal' }, [...sources, 'ann:two'], 'pred:b')).toBe('proposal');
    // A choice no longer among the sources (deleted) falls back; A is never B.
    expect(pick({ b: 'pred:gone' }, sources, null)).toBe('pred:a');
    expect(pick({ a: 'pred:a' }, sources, null)).toBe('pred:b');
    expect(pick({}, ['gt'], 'pred:b')).toBeNull();
  });
});
