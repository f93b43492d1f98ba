import { describe, expect, it } from 'vitest';
import { coverage } from './spoc';
import { countedFrame, planClipFrames } from './evalFrames';

const COUNTS = { iAct: 1, uAct: 2, iTrf: 0, uTrf: 0, iObj: 1, uObj: 2 };

describe('planClipFrames', () => {
  it('walks the listed frames in order, unpainted and ignored ones included, then GT masks the list lacks', () => {
    const plan = planClipFrames(
      [
        { key: 'f0', ignored: false, phase: 'initial' },
        { key: 'f1', ignored: true },
        { key: 'f2', ignored: false },
        { key: 'f3', ignored: true },
      ],
      new Map([['f0', 'g0'], ['f1', 'g1'], ['f9', 'g9']]),
      new Map([['f0', 'p0'], ['f3', 'p3']]),
    );
    expect(plan).toEqual([
      { key: 'f0', ignored: false, phase: 'initial', gt: 'g0', pred: 'p0' },
      { key: 'f1', ignored: true, phase: undefined, gt: 'g1', pred: undefined },
      { key: 'f2', ignored: false, phase: undefined, gt: undefined, pred: undefined },
      { key: 'f3', ignored: true, phase: undefined, gt: undefined, pred: 'p3' },
      { key: 'f9', ignored: false, phase: undefined, gt: 'g9', pred: undefined },
    ]);
    // Every ignored frame counts as ignored, painted or not; every other one is evaluated, and a
    // missing prediction is counted only where the frame is evaluated.
    const counted = plan.map((f) => countedFrame(f, COUNTS));
    expect(coverage([{ id: 'c', verb: 'v', noun: 'n', subset: 'seen', frames: counted }])).toEqual({
      clips: 1,
      frames: 5,
      evaluatedFrames: 3,
      ignoredFrames: 2,
      missingPredictions: 2,
    });
  });

  it('without a list, walks the GT masks', () => {
    const plan = planClipFrames(null, new Map([[2, 'a'], [0, 'b']]), new Map([[0, 'p']]));
    expect(plan.map((f) => [f.key, f.gt, f.pred])).toEqual([[2, 'a', undefined], [0, 'b', 'p']]);
  });
});
