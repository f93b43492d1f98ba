import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LabelMap } from '../../masks/labelMap';
import { frameAgreement } from '../../metrics/agreement';
import { draw } from '../../testing/review';
import { DISPUTE, DEFAULT_MERGE, disputeMap, mergeMaps, paintDisputes, resolveFrame, resolutionAction, type MergeRule } from './resolve';

const VALUES = [0, 1, 2, 3, 4, 5, 255];
const STATES = [0, 1, 2];

/** Two maps of the same random size over the given label values. */
const pair = (values: number[]) =>
  fc
    .record({ w: fc.integer({ min: 1, max: 12 }), h: fc.integer({ min: 1, max: 8 }) })
    .chain(({ w, h }) =>
      fc.tuple(
        fc.uint8Array({ minLength: w * h, maxLength: w * h }).map((d) => d.map((v) => values[v % values.length])),
        fc.uint8Array({ minLength: w * h, maxLength: w * h }).map((d) => d.map((v) => values[v % values.length])),
      ).map(([da, db]): [LabelMap, LabelMap] => [
        { width: w, height: h, data: da },
        { width: w, height: h, data: db },
      ]),
    );

const RULES: MergeRule[] = (['union', 'intersection'] as const).flatMap((extent) => (['a', 'b', 'transformed', 'actionable'] as const).map((swap) => ({ extent, swap })));

describe('dispute map', () => {
  it('classes each pixel: only A, only B, state swap, excluded', () => {
    const a = draw(['aat.t.4']);
    const b = draw(['a.ttaa1']);
    const m = disputeMap(a, b);
    expect(Array.from(m.data)).toEqual([DISPUTE.agree, DISPUTE.onlyA, DISPUTE.agree, DISPUTE.onlyB, DISPUTE.swap, DISPUTE.onlyB, DISPUTE.excluded]);
    expect(m.counts).toEqual({ onlyA: 1, onlyB: 2, swap: 1, excluded: 1 });
  });

  it('has the counts of metrics/agreement on any pair of maps (property)', () => {
    fc.assert(
      fc.property(pair(VALUES), ([a, b]) => {
        const m = disputeMap(a, b);
        const f = frameAgreement(a, b);
        expect(m.counts.onlyA + m.counts.onlyB).toBe(f.extentDisputes);
        expect(m.counts.swap).toBe(f.stateSwaps);
        expect(m.counts.onlyA + m.counts.onlyB + m.counts.swap).toBe(f.disputed);
        // Swapping the sides swaps only A and only B.
        const r = disputeMap(b, a).counts;
        expect([r.onlyA, r.onlyB, r.swap, r.excluded]).toEqual([m.counts.onlyB, m.counts.onlyA, m.counts.swap, m.counts.excluded]);
      }),
    );
  });

  it('paints disputed pixels and leaves agreeing ones transparent', () => {
    const m = disputeMap(draw(['a.t']), draw(['aat']));
    const out = { data: new Uint8ClampedArray(3 * 4).fill(9) };
    paintDisputes(m, out);
    expect(out.data[3]).toBe(0);
    expect(out.data[7]).toBeGreaterThan(0);
    expect(out.data[11]).toBe(0);
  });

  it('refuses maps of different sizes', () => {
    expect(() => disputeMap(draw(['aa']), draw(['a']))).toThrow(RangeError);
  });
});

describe('merge', () => {
  it('keeps agreed pixels and settles disputes by the rule', () => {
    const a = draw(['aat.t.a']);
    const b = draw(['a.ttaat']);
    expect(Array.from(mergeMaps(a, b, { extent: 'union', swap: 'a' }).data)).toEqual(Array.from(draw(['aatttaa']).data));
    expect(Array.from(mergeMaps(a, b, { extent: 'union', swap: 'b' }).data)).toEqual(Array.from(draw(['aattaat']).data));
    expect(Array.from(mergeMaps(a, b, { extent: 'intersection', swap: 'transformed' }).data)).toEqual(Array.from(draw(['a.t.t.t']).data));
    expect(Array.from(mergeMaps(a, b, { extent: 'intersection', swap: 'actionable' }).data)).toEqual(Array.from(draw(['a.t.a.a']).data));
  });

  it('the default is "B fills in where A is empty" (property on 0/1/2 maps)', () => {
    expect(DEFAULT_MERGE).toEqual({ extent: 'union', swap: 'a' });
    fc.assert(
      fc.property(pair(STATES), ([a, b]) => {
        const m = mergeMaps(a, b);
        for (let i = 0; i < a.data.length; i++) expect(m.data[i]).toBe(a.data[i] !== 0 ? a.data[i] : b.data[i]);
      }),
    );
  });

  it('never changes a pixel both sides agree on, whatever the rule (property)', () => {
    fc.assert(
      fc.property(pair(VALUES), fc.constantFrom(...RULES), ([a, b], rule) => {
        const m = mergeMaps(a, b, rule);
        const d = disputeMap(a, b);
        for (let i = 0; i < a.data.length; i++) {
          if (d.data[i] === DISPUTE.agree || d.data[i] === DISPUTE.excluded) expect(m.data[i]).toBe(a.data[i]);
        }
        // A merge leaves no dispute with the side it sided with: union covers both objects,
        // intersection keeps only the common one.
        const objects = (x: LabelMap) => Array.from(x.data, (v) => (v === 1 || v === 2 ? 1 : 0));
        const ma = objects(m);
        const oa = objects(a);
        const ob = objects(b);
        for (let i = 0; i < ma.length; i++) {
          if (d.data[i] === DISPUTE.excluded) continue;
          expect(ma[i]).toBe(rule.extent === 'union' ? oa[i] | ob[i] : oa[i] & ob[i]);
        }
      }),
    );
  });

  it('a merge of a map with itself is the map', () => {
    fc.assert(fc.property(pair(STATES), fc.constantFrom(...RULES), ([a], rule) => {
        expect(Array.from(mergeMaps(a, a, rule).data)).toEqual(Array.from(a.data));
      }),
    );
  });
});

describe('resolveFrame', () => {
  it('takes one side with only its states (gt holds 0, 1, 2)', () => {
    const a = draw(['a4t3']);
    const b = draw(['tv5a']);
    expect(Array.from(resolveFrame(a, b, { kind: 'take-a' }).data)).toEqual([1, 0, 2, 0]);
    expect(Array.from(resolveFrame(a, b, { kind: 'take-b' }).data)).toEqual([2, 0, 0, 1]);
    // Excluded pixels keep A's label, which is then not a state: background.
    expect(Array.from(resolveFrame(a, b, { kind: 'merge', rule: DEFAULT_MERGE }).data)).toEqual([1, 0, 2, 1]);
  });

  it('names the pick and both sources in the revision action', () => {
    expect(resolutionAction({ kind: 'take-b' }, 'gt', 'ann:bob')).toBe('agreement:take-b A=gt B=ann:bob');
    expect(resolutionAction({ kind: 'merge', rule: { extent: 'intersection', swap: 'b' } }, 'gt', 'ann:bob')).toBe('agreement:merge(intersection,swap=b) A=gt B=ann:bob');
  });
});
