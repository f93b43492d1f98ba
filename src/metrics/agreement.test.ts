import { describe, expect, it } from 'vitest';
import { clipAgreement, disputesFromCounts, frameAgreement } from './agreement';
import { countFrame } from './spoc';
import { row } from '../testing/metricFixtures';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

describe('agreement between two label sources', () => {
  it('counts state swaps and extent disputes separately', () => {
    const f = frameAgreement(row([1, 1, 2, 0, 2, 0]), row([1, 2, 2, 2, 0, 0]));
    expect(f).toMatchObject({ disputed: 3, stateSwaps: 1, extentDisputes: 2 });
    close(f.act, 1 / 2);
    close(f.trf, 1 / 4);
    close(f.object, 3 / 5);
  });

  it('is symmetric and excludes 4/5/255 from either side', () => {
    const a = row([1, 4, 2, 0, 255]);
    const b = row([1, 1, 5, 2, 2]);
    const ab = frameAgreement(a, b);
    const ba = frameAgreement(b, a);
    expect(ab.counts).toEqual({ iAct: 1, uAct: 1, iTrf: 0, uTrf: 1, iObj: 1, uObj: 2 });
    expect(ba.counts).toEqual(ab.counts);
    expect(ab.disputed).toBe(1);
    // Plain countFrame is not symmetric: prediction-side 5 is background there.
    expect(countFrame(a, b)).not.toEqual(countFrame(b, a));
  });

  it('derives disputes from counts alone', () => {
    expect(disputesFromCounts({ iAct: 5, uAct: 5, iTrf: 5, uTrf: 5, iObj: 10, uObj: 10 })).toEqual({ disputed: 0, stateSwaps: 0, extentDisputes: 0 });
  });

  it('pools a clip, skipping ignored and missing frames', () => {
    const r = clipAgreement(
      [{ map: row([1, 1, 2, 2]) }, { map: row([1, 1, 1, 1]), ignored: true }, { map: row([1, 2, 0, 0]) }, { map: null }],
      [{ map: row([1, 2, 2, 2]) }, { map: row([2, 2, 2, 2]) }, { map: row([1, 2, 0, 2]) }, { map: row([1, 1, 1, 1]) }],
    );
    expect(r.comparedFrames).toBe(2);
    expect(r.frames.map((f) => f.skipped)).toEqual([undefined, 'ignored', undefined, 'missing']);
    // act: frame 0 I=1 U=2, frame 2 I=1 U=1 -> pooled 2/3, per-frame (0.5 + 1)/2
    close(r.pooled.act, 2 / 3);
    close(r.perFrameMean.act, 0.75);
    // trf: frame 0 I=2 U=3, frame 2 I=1 U=2 -> 3/5
    close(r.pooled.trf, 3 / 5);
    expect(r.totals).toEqual({ disputed: 2, stateSwaps: 1, extentDisputes: 1 });
  });

  it('rejects sources of different length', () => {
    expect(() => clipAgreement([{ map: null }], [])).toThrow(RangeError);
  });
});
