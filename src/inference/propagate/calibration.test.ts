import { describe, expect, it } from 'vitest';
import { AMBIGUOUS_CLAIM, calibrate, calibrationError, fitIsotonic, rawTrackScore, shownTrackConfidence, TRACK_CALIBRATION, trackConfidence } from './calibration';
import { fitChains, scoreChain } from './calibrationFit';
import type { GroupEvidence } from './track';

const group = (over: Partial<GroupEvidence> = {}): GroupEvidence => ({
  box: { x: 0, y: 0, w: 10, h: 10 },
  area: 100,
  dx: 0,
  dy: 0,
  steps: 1,
  rms: 0,
  ambiguity: 0,
  agreement: 1,
  areaRatio: 1,
  lost: 0,
  ...over,
});

describe('isotonic calibration', () => {
  it('pools adjacent violators into a non-decreasing step function', () => {
    const t = fitIsotonic([
      { x: 0.1, y: 0.2 },
      { x: 0.2, y: 0.6 },
      { x: 0.3, y: 0.4 },
      { x: 0.4, y: 0.9 },
    ]);
    expect(t.raw.map((v) => +v.toFixed(3))).toEqual([0.1, 0.25, 0.4]);
    expect(t.iou.map((v) => +v.toFixed(3))).toEqual([0.2, 0.5, 0.9]);
    expect(calibrate(0.325, t)).toBeCloseTo(0.7, 10);
    expect(calibrate(-1, t)).toBe(0.2);
    expect(calibrate(2, t)).toBe(0.9);
  });

  it('each shipped table is monotone, and the confidence never exceeds the frame it came from', () => {
    for (const mode of ['native', 'sampled'] as const) {
      const table = TRACK_CALIBRATION[mode];
      expect(table.raw.length).toBe(table.iou.length);
      for (let i = 1; i < table.raw.length; i++) {
        expect(table.raw[i]).toBeGreaterThan(table.raw[i - 1]);
        expect(table.iou[i]).toBeGreaterThanOrEqual(table.iou[i - 1]);
      }
      expect(trackConfidence(1, 0.4, mode)).toBe(0.4);
      expect(trackConfidence(0, 1, mode)).toBe(table.iou[0]);
    }
  });

  it('scores an ambiguous match 0 and weights groups by area', () => {
    expect(rawTrackScore([group({ ambiguity: 0.95 })])).toBe(0);
    expect(rawTrackScore([group()])).toBe(1);
    expect(rawTrackScore([group({ area: 300 }), group({ area: 100, agreement: 0 })])).toBeCloseTo(0.75, 10);
    expect(rawTrackScore([group()], 0.5)).toBe(0.5);
    expect(rawTrackScore([])).toBeNull();
  });

  it('measures calibration error per confidence bin and counts over-claims', () => {
    const e = calibrationError([
      { confidence: 0.95, iou: 0.4 },
      { confidence: 0.95, iou: 0.9 },
      { confidence: 0.35, iou: 0.35 },
    ]);
    expect(e.overclaims).toBe(1);
    expect(e.ece).toBeCloseTo((2 / 3) * 0.3, 10);
  });

  it('pools equal raw scores into one point whatever their order (one value per raw score)', () => {
    const t = fitIsotonic([
      { x: 0, y: 0 },
      { x: 0, y: 1 },
      { x: 0.5, y: 0.9 },
    ]);
    expect(t.raw).toEqual([0, 0.5]);
    expect(t.iou).toEqual([0.5, 0.9]);
  });

  it('counts frames claiming >= 0.9 below IoU 0.8 apart from those below 0.5', () => {
    const e = calibrationError([
      { confidence: 0.95, iou: 0.4 },
      { confidence: 0.92, iou: 0.7 },
      { confidence: 0.95, iou: 0.85 },
    ]);
    expect(e.overclaims).toBe(1);
    expect(e.overclaimsUnder80).toBe(2);
  });
});

describe('chain depth (steps since a person\'s mask)', () => {
  it('a deeper chain with the same raw score never gets a higher confidence, and a deep one gets less', () => {
    for (const mode of ['native', 'sampled'] as const) {
      for (let raw = 0; raw <= 1.0001; raw += 0.05) {
        for (let depth = 0; depth < 8; depth++) {
          expect(trackConfidence(raw, 1, mode, depth + 1)).toBeLessThanOrEqual(trackConfidence(raw, 1, mode, depth));
        }
      }
      // The end of a chain of 4 from a person's mask (depth 3) claims less than its first step at the same score.
      expect(trackConfidence(0.7, 1, mode, 3)).toBeLessThan(trackConfidence(0.7, 1, mode, 0) - 0.02);
    }
  });

  it('a frame whose raw score is 0 (a jump that may be on a look-alike) is shown below even odds, whatever the table says', () => {
    for (const mode of ['native', 'sampled'] as const) {
      expect(shownTrackConfidence(0, 1, mode)).toBe(Math.min(trackConfidence(0, 1, mode), AMBIGUOUS_CLAIM));
      expect(shownTrackConfidence(0, 1, mode)).toBeLessThan(0.5);
      expect(shownTrackConfidence(0.7, 0.9, mode, 2)).toBe(trackConfidence(0.7, 0.9, mode, 2));
    }
  });

  it('the fit finds the per-step decay the chains have and reproduces their IoU', () => {
    // Chains whose IoU falls by a tenth a step whatever their scores: the score cannot see it, the depth can.
    const scores = [0.3, 0.5, 0.7, 0.9];
    const chains = scores.map((_, i) => [0, 1, 2, 3].map((d) => ({ score: scores[(i + d) % 4], iou: 0.95 * 0.9 ** d })));
    const fit = fitChains(chains, { raw: [0, 1], iou: [0, 1] });
    expect(fit.decay).toBeCloseTo(0.9, 10);
    expect(fit.error).toBeLessThan(1e-12);
    for (const s of scoreChain(chains[0], fit.table, fit.decay)) expect(s.confidence).toBeCloseTo(0.95 * 0.9 ** s.depth, 10);
    // Without a decay (1) the best constant table over-claims the chain's end.
    const flat = fitChains(chains, { raw: [0, 1], iou: [0, 1] }, [1]);
    expect(flat.error).toBeGreaterThan(0.001);
  });
});
