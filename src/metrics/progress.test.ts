import { describe, expect, it } from 'vitest';
import { clipProgress, endStateStats, kendallTau, progressCurve, progressRatio, stateAreas, summarizeProgress } from './progress';
import type { EvalClip } from './spoc';
import { row } from '../testing/metricFixtures';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

describe('progress (vectors §3, S2)', () => {
  const areas = [
    [10, 0],
    [8, 2],
    [5, 5],
    [2, 8],
    [0, 10],
    [1, 9],
  ].map(([act, trf]) => ({ act, trf }));
  const r = areas.map(progressRatio);

  it('R_t = [1, .8, .5, .2, 0, .1]', () => {
    [1, 0.8, 0.5, 0.2, 0, 0.1].forEach((e, i) => close(r[i], e));
  });

  it('Kendall tau as SPOC defines it: -0.866666666667', () => {
    close(kendallTau(r), -0.866666666667);
    close(kendallTau(r), (1 - 14) / 15);
  });

  it('ties count as non-increasing: [.8, .8, .5] -> -1 (tau-b would not say -1)', () => {
    expect(kendallTau([0.8, 0.8, 0.5])).toBe(-1);
  });

  it('end-state frames 4..5: sigma 0.05, sample 0.0707, L2 0.1, RMS 0.0707', () => {
    const e = endStateStats(r.slice(4));
    close(e.sigma, 0.05);
    close(e.sigmaSample, 0.070710678119);
    close(e.l2, 0.1);
    close(e.rms, 0.070710678119);
  });
});

describe('progress edge cases', () => {
  it('R is NaN when neither state is present, and NaN points are skipped', () => {
    expect(Number.isNaN(progressRatio({ act: 0, trf: 0 }))).toBe(true);
    expect(kendallTau([1, NaN, 0.5, NaN, 0])).toBe(-1);
    expect(Number.isNaN(kendallTau([NaN, 0.3]))).toBe(true);
    expect(Number.isNaN(kendallTau([]))).toBe(true);
    expect(endStateStats([NaN, 0.2])).toMatchObject({ n: 1, sigma: 0, l2: 0.2 });
    expect(Number.isNaN(endStateStats([0.2]).sigmaSample)).toBe(true);
    expect(Number.isNaN(endStateStats([]).l2)).toBe(true);
  });

  it('a strictly increasing curve scores +1', () => {
    expect(kendallTau([0, 0.1, 0.2])).toBe(1);
  });

  it('counts areas from label maps, ignoring other labels', () => {
    expect(stateAreas(row([1, 1, 2, 4, 5, 255, 0, 3]))).toEqual({ act: 2, trf: 1 });
    expect(progressCurve([row([1, 2]), null, row([0, 0])]).map((x) => (Number.isNaN(x) ? 'nan' : x))).toEqual([0.5, 'nan', 'nan']);
  });

  it('builds clip curves from predictions or GT, skipping ignored frames by default', () => {
    const clip: EvalClip = {
      id: 'c',
      verb: 'peeling',
      noun: 'banana',
      subset: 'seen',
      frames: [
        { gt: row([1, 1, 1, 1]), pred: row([1, 1, 1, 1]), phase: 'initial' },
        { gt: row([1, 1, 2, 2]), pred: row([1, 2, 2, 2]), phase: 'transitioning', ignored: true },
        { gt: row([2, 2, 2, 2]), pred: row([1, 2, 2, 2]), phase: 'end' },
        { gt: row([2, 2, 2, 2]), pred: null, phase: 'end' },
      ],
    };
    const p = clipProgress(clip);
    expect(p.curve.slice(0, 3).map((x) => (Number.isNaN(x) ? 'nan' : x))).toEqual([1, 'nan', 0.25]);
    expect(Number.isNaN(p.curve[3])).toBe(true);
    expect(p.tau).toBe(-1);
    expect(p.end).toMatchObject({ n: 1, l2: 0.25 });
    const withIgnored = clipProgress(clip, { includeIgnored: true });
    expect(withIgnored.curve[1]).toBe(0.25);
    const gt = clipProgress(clip, { source: 'gt' });
    expect(gt.end).toMatchObject({ n: 2, sigma: 0, l2: 0 });
    const s = summarizeProgress([p, gt]);
    expect(s.clips).toBe(2);
    close(s.endL2, 0.125);
  });
});
