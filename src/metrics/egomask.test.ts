import { describe, expect, it } from 'vitest';
import { type EgoExpression, evaluateExpression, summarizeEgoMask } from './egomask';
import { blank, sq } from '../testing/metricFixtures';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

describe('EgoMask (vectors §4)', () => {
  const A = sq(4, 4, 0, 1, 0, 1);
  const B = sq(4, 4, 0, 1, 1, 2);
  const expr: EgoExpression = {
    id: 'e',
    frameCount: 5,
    gt: [A, A, undefined, undefined, A],
    pred: [A, B, undefined, A, undefined],
  };
  const r = evaluateExpression(expr);

  it('per-frame IoU [1, 1/3, 1, 0, 0] and F [1, 1, 1, 0, 0]', () => {
    [1, 1 / 3, 1, 0, 0].forEach((e, i) => close(r.iou[i], e));
    expect(r.boundaryF).toEqual([1, 1, 1, 0, 0]);
  });

  it('IoU_all, IoU_gold, IoU_gold_pred, J, F, J&F', () => {
    close(r.iouAll, 0.466666666667);
    close(r.iouGold, 0.444444444444);
    close(r.iouGoldPred, 0.333333333333);
    close(r.j, 0.466666666667);
    close(r.f, 0.6);
    close(r.jf, 0.533333333333);
  });

  it('temporal precision / recall / F1 / accuracy', () => {
    expect({ tp: r.tp, fp: r.fp, fn: r.fn, tn: r.tn }).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    close(r.tPrecision, 0.666666666667);
    close(r.tRecall, 0.666666666667);
    close(r.tF1, 0.666666666667);
    close(r.tAcc, 0.6);
  });

  it('scores a frame empty in both as 1 regardless of the previous frame (reference reuses the stale IoU)', () => {
    const listedEmpty = evaluateExpression({ frameCount: 2, gt: [A, blank(4, 4)], pred: [B, blank(4, 4)] });
    expect(listedEmpty.iou).toEqual([1 / 3, 1]);
    // A listed-but-empty GT frame is not a gold frame and not a presence positive.
    close(listedEmpty.iouGold, 1 / 3);
    expect(listedEmpty.tn).toBe(1);
  });

  it('averages over expressions, skipping NaN (no gold frames)', () => {
    const none = evaluateExpression({ frameCount: 3, gt: [], pred: [] });
    expect(none).toMatchObject({ iouAll: 1, j: 1, f: 1, tPrecision: 1, tRecall: 1, tF1: 1, tAcc: 1 });
    expect(Number.isNaN(none.iouGold)).toBe(true);
    const s = summarizeEgoMask([r, none]);
    expect(s.expressions).toBe(2);
    close(s.iouGold, 0.444444444444);
    close(s.j, (0.466666666667 + 1) / 2);
  });

  it('a prediction that never fires has precision 0, recall 0', () => {
    const silent = evaluateExpression({ frameCount: 2, gt: [A], pred: [] });
    expect(silent).toMatchObject({ tPrecision: 0, tRecall: 0, tF1: 0, tAcc: 0.5 });
  });

  it('validates sizes and frame counts', () => {
    expect(() => evaluateExpression({ frameCount: 1, gt: [A, A], pred: [] })).toThrow(RangeError);
    expect(() => evaluateExpression({ frameCount: 0, gt: [], pred: [] })).toThrow(RangeError);
    expect(() => evaluateExpression({ frameCount: 1, gt: [A], pred: [blank(5, 4)] })).toThrow(RangeError);
  });
});
