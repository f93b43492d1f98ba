import { describe, expect, it } from 'vitest';
import { approvalBlocker, nextUnreviewed, rejectedFramesNote, verdictTally, type Verdicts } from './verdicts';

const v = (entries: [number, 'accept' | 'reject', string?][]): Verdicts => new Map(entries.map(([k, verdict, note]) => [k, { verdict, note, by: 'rev' }]));

describe('verdict helpers', () => {
  it('nextUnreviewed steps forward and back over reviewed frames, wrapping; null when all are reviewed', () => {
    const verdicts = v([[1, 'accept'], [2, 'reject'], [4, 'accept']]);
    expect(nextUnreviewed(5, verdicts, 0)).toBe(3);
    expect(nextUnreviewed(5, verdicts, 3)).toBe(0);
    expect(nextUnreviewed(5, verdicts, 3, -1)).toBe(0);
    expect(nextUnreviewed(5, verdicts, 0, -1)).toBe(3);
    expect(nextUnreviewed(5, new Map(), 4)).toBe(0);
    expect(nextUnreviewed(3, v([[0, 'accept'], [1, 'accept'], [2, 'reject']]), 1)).toBeNull();
    // The current frame itself comes last (only when it is the one left).
    expect(nextUnreviewed(3, v([[1, 'accept'], [2, 'accept']]), 0)).toBe(0);
  });

  it('lists rejected frames (numbered from 1) for the change request and blocks approval', () => {
    const verdicts = v([[6, 'reject', 'peel missing'], [0, 'accept'], [2, 'reject']]);
    expect(rejectedFramesNote(verdicts)).toBe('Rejected frames:\nFrame 3\nFrame 7: peel missing');
    expect(approvalBlocker(verdicts)).toMatch(/^Frames 3, 7 are rejected/);
    expect(approvalBlocker(v([[0, 'accept']]))).toBeNull();
    expect(rejectedFramesNote(v([[0, 'accept']]))).toBe('');
    expect(verdictTally(10, verdicts)).toEqual({ accepted: 1, rejected: 2, open: 7 });
  });
});
