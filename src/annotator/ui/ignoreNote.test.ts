import { describe, expect, it } from 'vitest';
import { ignoreNoteProblem, MAX_IGNORE_NOTE } from './ignoreNote';

describe('ignore note', () => {
  it('asks for words when the reason is "other"', () => {
    expect(ignoreNoteProblem('other', '  ')).toMatch(/"Other" needs a few words/);
    expect(ignoreNoteProblem('other', 'hand covers the lens')).toBeNull();
  });

  it('leaves the note optional for the guideline reasons, within a length', () => {
    expect(ignoreNoteProblem('too_blurry', '')).toBeNull();
    expect(ignoreNoteProblem('not_visible', 'x'.repeat(MAX_IGNORE_NOTE + 1))).toMatch(/under 500 characters/);
  });
});
