import { describe, expect, it } from 'vitest';
import type { LabelMap } from '../masks/labelMap';
import { VosSequenceScorer, objectCount, uint8DecayEdges, vosGlobal, vosStatistics } from './vos';

/** Rows of digits; "F" = 255 (void). */
function map(rows: readonly string[]): LabelMap {
  const width = rows[0].length;
  const data = new Uint8Array(width * rows.length);
  rows.forEach((r, y) => [...r].forEach((c, x) => (data[y * width + x] = c === 'F' ? 255 : Number.parseInt(c, 16))));
  return { width, height: rows.length, data };
}

describe('vosStatistics (db_statistics), values worked out by hand', () => {
  it('mean, recall > 0.5 and decay over 5 frames', () => {
    // Edges linspace(1, 5, 5) - 1 = [0, 1, 2, 3, 4]: bin 0 = [1, 0.4], bin 3 = [0.2, 0.8].
    const s = vosStatistics([1, 0.4, 0.6, 0.2, 0.8]);
    expect(s.mean).toBeCloseTo(0.6, 15);
    expect(s.recall).toBe(0.6);
    expect(s.decay).toBeCloseTo(0.7 - 0.5, 15);
  });

  it('one frame: decay 0; two frames: first minus last', () => {
    expect(vosStatistics([0.3])).toEqual({ mean: 0.3, recall: 0, decay: 0 });
    expect(vosStatistics([1, 0.25]).decay).toBe(0.75);
  });

  it('keeps integer bin edges by default and wraps them as uint8 with davisCompat (the reference, numpy 2)', () => {
    const values = Array.from({ length: 300 }, (_, t) => (t < 150 ? 1 : 0));
    expect(uint8DecayEdges(300)).toEqual([0, 75, 150, 224, 43]);
    expect(vosStatistics(values).decay).toBe(1);
    // Bin 3 = v[224 : 44] is empty in the reference: D is NaN.
    expect(vosStatistics(values, true).decay).toBeNaN();
    // 256 frames: the last edge is 255 and numpy 2 computes 255 + 1 in uint8 = 0: empty again.
    const v256 = Array.from({ length: 256 }, (_, t) => (t < 150 ? 1 : 0));
    expect(vosStatistics(v256).decay).toBe(1);
    expect(vosStatistics(v256, true).decay).toBeNaN();
    expect(vosStatistics(v256, true).mean).toBe(0.5859375);
    // Up to 255 frames both agree.
    const v200 = Array.from({ length: 200 }, (_, t) => t / 199);
    expect(vosStatistics(v200, true)).toEqual(vosStatistics(v200));
  });
});

describe('VosSequenceScorer, semi-supervised (hand-checked)', () => {
  // Object count from a first frame: void is not an object.
  it('counts objects as the largest id of the first frame, void left out', () => {
    expect(objectCount(map(['0F', '30']))).toBe(3);
  });

  it('scores object k against object k; a missing object scores J = F = 0, absent from both J = F = 1', () => {
    const scorer = new VosSequenceScorer('semi-supervised', 2);
    // Frame A: object 1 exact, object 2 missing from the prediction.
    scorer.addFrame(map(['1100', '0000', '0022', '0000']), map(['1100', '0000', '0000', '0000']));
    // Frame B: object 1 absent from both, object 2 exact.
    scorer.addFrame(map(['0000', '0000', '0022', '0000']), map(['0000', '0000', '0022', '0000']));
    const [o1, o2] = scorer.finish();
    expect([o1.gtId, o1.predId, Array.from(o1.j), Array.from(o1.f)]).toEqual([1, 1, [1, 1], [1, 1]]);
    // Frame A, object 2: no predicted boundary, some GT boundary -> P = 1, R = 0 -> F = 0.
    expect([Array.from(o2.j), Array.from(o2.f)]).toEqual([[0, 1], [0, 1]]);
    expect(o2.jStats).toEqual({ mean: 0.5, recall: 0.5, decay: -1 });
    const g = vosGlobal([o1, o2]);
    expect(g).toEqual({ jfMean: 0.75, jMean: 0.75, jRecall: 0.75, jDecay: -0.5, fMean: 0.75, fRecall: 0.75, fDecay: -0.5 });
  });

  it('reads GT void as background (no void mask in the reference’s semi-supervised call)', () => {
    const gt = map(['11FF', '1100', '0000', '0000']);
    const pred = map(['1111', '1100', '0000', '0000']);
    const semi = new VosSequenceScorer('semi-supervised', 1);
    semi.addFrame(gt, pred);
    expect(semi.finish()[0].j[0]).toBe(4 / 6);
    const unsup = new VosSequenceScorer('unsupervised', 1);
    unsup.addFrame(gt, pred);
    // Unsupervised excludes the void pixels: 4 / 4.
    expect(unsup.finish()[0].j[0]).toBe(1);
  });
});

describe('VosSequenceScorer, unsupervised (hand-checked)', () => {
  it('assigns result objects to GT objects optimally and lists pairs in order of result id', () => {
    const gt = map(['1100', '1100', '0022', '0022']);
    // Result 1 = GT object 2, result 2 = noise, result 3 = GT object 1.
    const pred = map(['3300', '3300', '0011', '2011']);
    const scorer = new VosSequenceScorer('unsupervised', 2);
    scorer.addFrame(gt, pred);
    const rows = scorer.finish();
    expect(rows.map((r) => [r.gtId, r.predId])).toEqual([
      [2, 1],
      [1, 3],
    ]);
    expect(Array.from(rows[1].j)).toEqual([1]);
    expect(Array.from(rows[0].j)).toEqual([1]);
    expect(scorer.predictedObjects).toBe(3);
  });

  it('pads missing result objects with empty ones', () => {
    const scorer = new VosSequenceScorer('unsupervised', 2);
    scorer.addFrame(map(['1100', '1100', '0022', '0022']), map(['0000', '0000', '0011', '0011']));
    const rows = scorer.finish();
    // Result 1 takes GT object 2; the padded empty result 2 gets GT object 1 (J = 0, F = 0).
    expect(rows.map((r) => [r.gtId, r.predId, r.j[0], r.f[0]])).toEqual([
      [2, 1, 1, 1],
      [1, 2, 0, 0],
    ]);
  });
});
