import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../masks/labelMap';
import {
  type CountedClip,
  type EvalClip,
  countClip,
  countFrame,
  coverage,
  evaluateSpoc,
  scoreClips,
  scoreColumns,
  withFrame,
} from './spoc';
import { paint, row } from '../testing/metricFixtures';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

/** Vector S1. */
const s1: EvalClip[] = [
  {
    id: 'c1',
    verb: 'chopping',
    noun: 'carrot',
    subset: 'seen',
    frames: [
      { gt: row([1, 1, 2, 5]), pred: row([1, 2, 2, 1]) },
      { gt: row([2, 2, 0, 4]), pred: row([2, 2, 2, 1]) },
    ],
  },
  { id: 'c2', verb: 'chopping', noun: 'onion', subset: 'seen', frames: [{ gt: row([0, 0, 2, 2]), pred: row([0, 0, 0, 2]) }] },
];

describe('SPOC mIoU aggregation (vectors §3, S1)', () => {
  const counted = s1.map(countClip);

  it('counts frame a of clip 1', () => {
    expect(countFrame(row([1, 1, 2, 5]), row([1, 2, 2, 1]))).toEqual({ iAct: 1, uAct: 2, iTrf: 1, uTrf: 2, iObj: 3, uObj: 3 });
  });

  it('clip-pooled: act 0.5 (clip 2 left out), trf 0.55, mIoU 0.525', () => {
    const s = scoreClips(counted);
    close(s.act, 0.5);
    expect(s.clipsAct).toBe(1);
    close(s.trf, 0.55);
    close(s.miou, 0.525);
  });

  it('per-frame: trf 0.541666666667, mIoU 0.520833333333', () => {
    const s = scoreClips(counted, 'per-frame');
    close(s.trf, 0.541666666667);
    close(s.miou, 0.520833333333);
  });

  it('dataset-pooled: trf 0.571428571429, mIoU 0.535714285714', () => {
    const s = scoreClips(counted, 'dataset-pooled');
    close(s.trf, 0.571428571429);
    close(s.miou, 0.535714285714);
  });

  it('fused object ("w/o OSC"), clip-pooled: 0.666666666667', () => {
    close(scoreClips(counted).object, 0.666666666667);
  });
});

describe('SPOC exclusions and edge cases', () => {
  const gt = paint(paint(createLabelMap(8, 6), 1, 0, 2, 0, 3), 2, 3, 5, 0, 3);

  it('excludes GT 4, 5 and 255 pixels but treats predicted 4/5/255 and GT 3 as background', () => {
    expect(countFrame(row([4, 5, 255, 3]), row([1, 2, 1, 2]))).toEqual({ iAct: 0, uAct: 0, iTrf: 0, uTrf: 1, iObj: 0, uObj: 1 });
    expect(countFrame(row([1, 2]), row([4, 5]))).toEqual({ iAct: 0, uAct: 1, iTrf: 0, uTrf: 1, iObj: 0, uObj: 2 });
  });

  it('scores a perfect full-frame prediction 1 and a missing prediction 0', () => {
    const full = createLabelMap(8, 6, 1);
    const perfect = scoreClips([countClip({ id: 'f', verb: 'v', noun: 'n', subset: 'seen', frames: [{ gt: full, pred: full }] })]);
    expect(perfect).toMatchObject({ act: 1, miou: 1, object: 1 });
    expect(Number.isNaN(perfect.trf)).toBe(true);
    const missing = countClip({ id: 'm', verb: 'v', noun: 'n', subset: 'seen', frames: [{ gt, pred: null }] });
    expect(scoreClips([missing])).toMatchObject({ act: 0, trf: 0, miou: 0, object: 0 });
    expect(coverage([missing]).missingPredictions).toBe(1);
  });

  it('gives NaN (not 1) when nothing is labelled in GT or prediction', () => {
    const empty = createLabelMap(8, 6);
    const s = scoreClips([countClip({ id: 'e', verb: 'v', noun: 'n', subset: 'seen', frames: [{ gt: empty, pred: null }] })]);
    expect([s.act, s.trf, s.miou, s.object].every(Number.isNaN)).toBe(true);
    expect(s.clipsAct).toBe(0);
  });

  it('leaves out ignored frames, and a clip whose frames are all ignored', () => {
    const wrong = createLabelMap(8, 6, 2);
    const clip = countClip({
      id: 'i',
      verb: 'v',
      noun: 'n',
      subset: 'seen',
      frames: [
        { gt, pred: wrong, ignored: true },
        { gt, pred: gt },
      ],
    });
    expect(scoreClips([clip])).toMatchObject({ act: 1, trf: 1, miou: 1 });
    const allIgnored = countClip({ id: 'x', verb: 'v', noun: 'n', subset: 'seen', frames: [{ gt, pred: wrong, ignored: true }] });
    const s = scoreClips([allIgnored]);
    expect(Number.isNaN(s.miou)).toBe(true);
    expect(coverage([allIgnored])).toEqual({ clips: 1, frames: 1, evaluatedFrames: 0, ignoredFrames: 1, missingPredictions: 0 });
    // And it does not drag down other clips.
    expect(scoreClips([clip, allIgnored]).miou).toBe(1);
  });

  it('a single-frame clip scores the same under every convention', () => {
    const pred = paint(gt, 2, 2, 2, 0, 3);
    const clip = countClip({ id: 's', verb: 'v', noun: 'n', subset: 'seen', frames: [{ gt, pred }] });
    const a = scoreClips([clip], 'clip-pooled');
    close(scoreClips([clip], 'per-frame').miou, a.miou);
    close(scoreClips([clip], 'dataset-pooled').miou, a.miou);
    close(a.act, 8 / 12);
    close(a.trf, 12 / 16);
  });

  it('rejects size mismatches', () => {
    expect(() => countFrame(createLabelMap(4, 4), createLabelMap(4, 5))).toThrow(RangeError);
  });

  it('handles maps whose bytes are not 4-aligned (no word fast path) and odd lengths', () => {
    const buf = new Uint8Array(16);
    const odd = { width: 5, height: 3, data: buf.subarray(1) };
    odd.data.set([1, 1, 2, 0, 0, 0, 2, 2, 1, 0, 0, 0, 0, 0, 1]);
    const copy = { width: 5, height: 3, data: odd.data.slice() };
    expect(countFrame(odd, copy)).toEqual({ iAct: 4, uAct: 4, iTrf: 3, uTrf: 3, iObj: 7, uObj: 7 });
    expect(countFrame(copy, null)).toEqual({ iAct: 0, uAct: 4, iTrf: 0, uTrf: 3, iObj: 0, uObj: 7 });
  });
});

describe('SPOC tables: verbs, subsets, transition frames', () => {
  const mk = (id: string, verb: string, subset: 'seen' | 'novel', act: number, trf: number, phase?: 'transitioning' | 'end'): CountedClip => ({
    id,
    verb,
    noun: 'x',
    subset,
    frames: [
      { counts: { iAct: act, uAct: 10, iTrf: trf, uTrf: 10, iObj: 10, uObj: 10 }, phase, missingPred: false },
      { counts: { iAct: 0, uAct: 10, iTrf: 0, uTrf: 10, iObj: 0, uObj: 10 }, phase: 'initial', missingPred: false },
    ],
  });
  const clips = [
    mk('a', 'peeling', 'seen', 10, 10, 'transitioning'), // act 0.5, trf 0.5
    mk('b', 'peeling', 'novel', 0, 0, 'transitioning'), // 0, 0
    mk('c', 'peeling', 'seen', 10, 0, 'end'), // 0.5, 0
    mk('d', 'melting', 'seen', 10, 10), // 0.5, 0.5
  ];

  it('mean over verbs averages per-verb scores; mean over clips averages clips', () => {
    const t = scoreColumns(clips);
    close(t.perVerb.peeling.act, 1 / 3);
    close(t.perVerb.peeling.trf, 1 / 6);
    close(t.perVerb.peeling.miou, 0.25);
    close(t.perVerb.melting.miou, 0.5);
    close(t.meanOverVerbs.miou, 0.375);
    close(t.meanOverVerbs.act, (1 / 3 + 0.5) / 2);
    close(t.meanOverClips.act, 1.5 / 4);
    close(t.meanOverClips.trf, 1 / 4);
    expect(Object.keys(t.perVerb)).toEqual(['melting', 'peeling']);
  });

  it('splits by subset and keeps only transitioning frames for the transition split', () => {
    const r = evaluateSpoc(clips);
    expect(Object.keys(r.novel.perVerb)).toEqual(['peeling']);
    close(r.novel.meanOverVerbs.miou, 0);
    close(r.seen.perVerb.peeling.act, 0.5);
    // Transition frames: clips a and b only (c is 'end', d has no phase).
    close(r.transition.perVerb.peeling.act, 0.5);
    expect(r.transition.perVerb.peeling.clipsAct).toBe(2);
    // A verb whose clips have no transitioning frame keeps its column, with no value.
    expect(Number.isNaN(r.transition.perVerb.melting.miou)).toBe(true);
    close(r.transition.meanOverVerbs.act, 0.5);
    expect(r.coverage).toEqual({ clips: 4, frames: 8, evaluatedFrames: 8, ignoredFrames: 0, missingPredictions: 0 });
  });

  it('updates one frame without recounting the clip', () => {
    const base = countClip(s1[0]);
    const edited = withFrame(base, 1, { gt: row([2, 2, 0, 4]), pred: row([2, 2, 0, 1]) });
    expect(edited).not.toBe(base);
    expect(edited.frames[0]).toBe(base.frames[0]);
    close(scoreClips([edited]).trf, 3 / 4);
    expect(() => withFrame(base, 2, s1[0].frames[0])).toThrow(RangeError);
  });
});
