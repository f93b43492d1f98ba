import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { clipProgress, stateAreas } from '../progress';
import type { EvalClip, Phase } from '../spoc';
import { progressBySource, sourceColour } from './progressCompare';
import { mergeAreas } from './progressSeries';

const map = (act: number, trf: number): LabelMap => {
  const m = createLabelMap(5, 4);
  m.data.fill(1, 0, act);
  m.data.fill(2, act, act + trf);
  return m;
};

describe('progressBySource', () => {
  it('gives gt and each other source the curve clipProgress gives their maps', () => {
    const gt: [number, number][] = [[10, 0], [8, 2], [0, 0], [5, 5], [2, 8], [0, 10]];
    // A prediction with no layer on frames 2 and 4 (rows absent): no object there.
    const pred: ([number, number] | null)[] = [[9, 1], [9, 0], null, [3, 7], null, [1, 9]];
    const phases: (Phase | undefined)[] = ['initial', 'initial', undefined, 'transitioning', 'end', 'end'];
    const ignored = new Set([1]);
    const frames = phases.map((phase, index) => ({ index, phase, ignored: ignored.has(index) ? { reason: 'other' } : undefined }));
    const clip: EvalClip = {
      id: 'c',
      verb: 'peeling',
      noun: 'potato',
      subset: 'seen',
      frames: gt.map(([a, t], k) => ({ gt: map(a, t), pred: pred[k] ? map(...pred[k]!) : null, phase: phases[k], ignored: ignored.has(k) })),
    };
    const gtAreas = mergeAreas(6, clip.frames.map((f, k) => ({ frameIndex: k, actArea: stateAreas(f.gt).act, trfArea: stateAreas(f.gt).trf })), new Map());
    const predRows = pred.flatMap((p, k) => (p ? [{ frameIndex: k, actArea: p[0], trfArea: p[1] }] : []));
    const got = progressBySource(6, frames, gtAreas, [{ source: 'pred:m', rows: predRows }, { source: 'ann:bob', rows: [] }]);
    expect(got.map((s) => s.source)).toEqual(['gt', 'pred:m', 'ann:bob']);
    const expectGt = clipProgress(clip, { source: 'gt' });
    const expectPred = clipProgress(clip, { source: 'pred' });
    expect(Array.from(got[0].r)).toEqual(expectGt.curve);
    expect(got[0].tau).toBe(expectGt.tau);
    expect(got[0].end).toEqual(expectGt.end);
    expect(Array.from(got[1].r)).toEqual(expectPred.curve);
    expect(got[1].tau).toBe(expectPred.tau);
    expect(got[1].end).toEqual(expectPred.end);
    // A source without layers has no object anywhere.
    expect(Array.from(got[2].r).every(Number.isNaN)).toBe(true);
  });

  it('gives each source its own colour', () => {
    const colours = [0, 1, 2, 3, 4, 5, 6, 7].map(sourceColour);
    expect(new Set(colours).size).toBe(8);
  });
});
