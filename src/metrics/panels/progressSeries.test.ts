import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../../masks/labelMap';
import { clipProgress } from '../progress';
import type { EvalClip, Phase } from '../spoc';
import { mergeAreas, progressFromAreas } from './progressSeries';

describe('mergeAreas', () => {
  it('takes live values over stored rows and zero where neither exists', () => {
    const { act, trf } = mergeAreas(
      4,
      [
        { frameIndex: 0, actArea: 5, trfArea: 1 },
        { frameIndex: 2, actArea: 7, trfArea: 0 },
        { frameIndex: 9, actArea: 1, trfArea: 1 }, // outside the clip: dropped
      ],
      new Map([[2, { act: 3, trf: 3 }]]),
    );
    expect(Array.from(act)).toEqual([5, 0, 3, 0]);
    expect(Array.from(trf)).toEqual([1, 0, 3, 0]);
  });
});

describe('progressFromAreas', () => {
  it('matches clipProgress on the GT maps with the same areas, ignored frames and phases', () => {
    const areas: [number, number][] = [[10, 0], [8, 2], [0, 0], [5, 5], [2, 8], [0, 10], [1, 9], [0, 10]];
    const phases: (Phase | undefined)[] = ['initial', 'initial', undefined, 'transitioning', 'transitioning', 'end', 'end', 'end'];
    const ignored = new Set([4]);
    const clip: EvalClip = {
      id: 'c',
      verb: 'peeling',
      noun: 'potato',
      subset: 'seen',
      frames: areas.map(([a, t], k) => {
        const map = createLabelMap(5, 4);
        map.data.fill(1, 0, a);
        map.data.fill(2, a, a + t);
        return { gt: map, pred: null, phase: phases[k], ignored: ignored.has(k) };
      }),
    };
    const expected = clipProgress(clip, { source: 'gt' });
    const got = progressFromAreas(
      mergeAreas(areas.length, areas.map(([a, t], k) => ({ frameIndex: k, actArea: a, trfArea: t })), new Map()),
      phases.map((phase, index) => ({ index, phase, ignored: ignored.has(index) ? { reason: 'other' } : undefined })),
    );
    expect(Array.from(got.r)).toEqual(expected.curve);
    expect(got.tau).toBe(expected.tau);
    expect(got.end).toEqual(expected.end);
    expect(Number.isNaN(got.r[2])).toBe(true); // no object
    expect(Number.isNaN(got.r[4])).toBe(true); // ignored
  });

  it('gives NaN statistics when nothing is defined', () => {
    const got = progressFromAreas(mergeAreas(3, [], new Map()), []);
    expect(Number.isNaN(got.tau)).toBe(true);
    expect(got.end.n).toBe(0);
  });
});
