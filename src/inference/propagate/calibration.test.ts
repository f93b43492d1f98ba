import { describe, expect, it } from 'vitest';
import { calibrate, calibrationError, fitIsotonic, rawTrackScore, TRACK_CALIBRATION, trackConfidence } from './calibration';
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
});
