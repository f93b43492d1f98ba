import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDynamics, causalOrdering, isCausallyOrdered, resolveAmbiguity, type TrackFrame } from './dynamics';
import type { ProposalState } from './eq1';

const S: Record<string, ProposalState> = { a: 'actionable', t: 'transformed', m: 'ambiguous', b: 'background' };
/** "aatm" -> frames 0.. with those states. */
const track = (s: string, start = 0): TrackFrame[] => [...s].map((c, i) => ({ frame: start + i, state: S[c] }));
const states = (t: readonly TrackFrame[]) => t.map((f) => [...Object.entries(S)].find(([, v]) => v === f.state)![0]).join('');

describe('causal ordering (SPOC §3.3 loop)', () => {
  it('leaves an already ordered track alone', () => {
    expect(states(causalOrdering(track('aaabttt')))).toBe('aaabttt');
    expect(states(causalOrdering(track('tttt')))).toBe('tttt');
    expect(states(causalOrdering(track('a')))).toBe('a');
    expect(causalOrdering([])).toEqual([]);
  });

  it('flips a late actionable outlier to transformed', () => {
    // A = {0,1,2,7}: |7 - 2.5| = 4.5; T = {3,4,5,6,8}: |3 - 5.2| = 2.2 -> flip max(A) = 7.
    expect(states(causalOrdering(track('aaattttat')))).toBe('aaatttttt');
  });

  it('flips an early transformed outlier to actionable', () => {
    // A = {0,2,3,4}: |4 - 2.25| = 1.75; T = {1,5,6,7}: |1 - 4.75| = 3.75 -> flip min(T) = 1.
    expect(states(causalOrdering(track('ataaattt')))).toBe('aaaaattt');
  });

  it('on a tie flips min(T) (the "else" branch)', () => {
    // A = {1}, T = {0}: |1 - 1| = 0 vs |0 - 0| = 0 -> flip min(T) = 0 to actionable.
    expect(states(causalOrdering(track('ta')))).toBe('aa');
    // A = {0, 3}, T = {1, 2}: |3 - 1.5| = 1.5 vs |1 - 1.5| = 0.5 -> flip 3; then ordered.
    expect(states(causalOrdering(track('atta')))).toBe('attt');
  });

  it('repeats until ordered, ignoring background and ambiguous frames', () => {
    const out = causalOrdering(track('tbamtaat'));
    expect(isCausallyOrdered(out)).toBe(true);
    expect(out.filter((f) => f.state === 'background').map((f) => f.frame)).toEqual([1]);
    expect(out.filter((f) => f.state === 'ambiguous').map((f) => f.frame)).toEqual([3]);
  });

  it('works on sparse, unsorted frame numbers and returns them sorted', () => {
    const out = causalOrdering([
      { frame: 90, state: 'actionable' },
      { frame: 10, state: 'actionable' },
      { frame: 50, state: 'transformed' },
      { frame: 60, state: 'transformed' },
    ]);
    expect(out.map((f) => [f.frame, f.state])).toEqual([
      [10, 'actionable'],
      [50, 'transformed'],
      [60, 'transformed'],
      [90, 'transformed'],
    ]);
  });

  it('refuses duplicate frames', () => {
    expect(() => causalOrdering([{ frame: 1, state: 'actionable' }, { frame: 1, state: 'transformed' }])).toThrow(/appears twice/);
  });

  it('always terminates with an ordered track, touching only actionable/transformed frames (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<ProposalState>('actionable', 'transformed', 'ambiguous', 'background'), { maxLength: 40 }), (labels) => {
        const t = labels.map((state, frame) => ({ frame, state }));
        const out = causalOrdering(t);
        expect(isCausallyOrdered(out)).toBe(true);
        out.forEach((f, i) => {
          if (t[i].state === 'background' || t[i].state === 'ambiguous') expect(f.state).toBe(t[i].state);
          else expect(f.state === 'actionable' || f.state === 'transformed').toBe(true);
        });
      }),
    );
  });
});

describe('ambiguity resolution', () => {
  it('sends an ambiguous frame to the nearer of max(A) and min(T)', () => {
    // A = {0,1}, T = {6,7}; 2 -> actionable (1 vs 4), 5 -> transformed (4 vs 1).
    expect(states(resolveAmbiguity(track('aammmmtt')))).toBe('aaaatttt'); // 3: 2 vs 3 -> a; 4: 3 vs 2 -> t
  });

  it('breaks ties towards transformed', () => {
    expect(states(resolveAmbiguity(track('amt')))).toBe('att'); // |1-0| = |1-2|
  });

  it('with only one state present, uses it; with neither, leaves frames ambiguous', () => {
    expect(states(resolveAmbiguity(track('mam')))).toBe('aaa');
    expect(states(resolveAmbiguity(track('mtm')))).toBe('ttt');
    expect(states(resolveAmbiguity(track('mmm')))).toBe('mmm');
    expect(states(resolveAmbiguity(track('mbm')))).toBe('mbm');
  });

  it('single-frame tracks stay as they are', () => {
    for (const c of 'atmb') expect(states(resolveAmbiguity(track(c)))).toBe(c);
  });
});

describe('applyDynamics', () => {
  it('orders first, then resolves with the ordered A and T, and records provenance', () => {
    const out = applyDynamics(track('amattat'));
    // Ordering: A = {0,2,5}, T = {3,4,6}: |5 - 2.33| = 2.67 > |3 - 4.33| = 1.33 -> flip 5 -> ordered.
    // Then frame 1 (ambiguous): |1 - 2| = 1 < |1 - 3| = 2 -> actionable.
    expect(states(out)).toBe('aaatttt');
    expect(out.map((f) => f.changedBy)).toEqual([null, 'ambiguity', null, null, null, 'causal', null]);
    expect(out[5].before).toBe('actionable');
  });

  it('keeps an all-ambiguous track ambiguous and background untouched', () => {
    const out = applyDynamics(track('mbmm'));
    expect(states(out)).toBe('mbmm');
    expect(out.every((f) => f.changedBy === null)).toBe(true);
  });

  it('result is always causally ordered (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<ProposalState>('actionable', 'transformed', 'ambiguous', 'background'), { maxLength: 30 }), (labels) => {
        const out = applyDynamics(labels.map((state, frame) => ({ frame, state })));
        expect(isCausallyOrdered(out)).toBe(true);
        if (labels.some((l) => l === 'actionable' || l === 'transformed')) expect(out.some((f) => f.state === 'ambiguous')).toBe(false);
      }),
    );
  });
});
