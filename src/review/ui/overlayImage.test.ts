import { describe, expect, it } from 'vitest';
import { countFrame } from '../../metrics/spoc';
import { frameCountsOf } from '../errorMap';
import { draw } from '../../testing/review';
import { errorTotals, paintOverlay } from './overlayImage';

const gt = draw(['aaa.', 'ttt.', '....']);
const pred = draw(['aa.a', 'tat.', '...t']);
const out = () => ({ width: 4, height: 3, data: new Uint8ClampedArray(48) });

describe('overlay pixels', () => {
  it('error mode paints the error map and its counts agree with the metrics', () => {
    const img = out();
    const counts = paintOverlay('error', gt, pred, img)!;
    expect(errorTotals(counts)).toEqual({ fp: 2, fn: 1, wrong: 1, tp: 4 });
    expect(frameCountsOf(counts)).toEqual(countFrame(gt, pred));
    // A false positive pixel (0, 3) is opaque reddish purple, a background pixel transparent.
    expect([...img.data.slice(12, 16)]).toEqual([204, 121, 167, 220]);
    expect(img.data[4 * 11 + 3]).toBe(220);
    expect(img.data[4 * 8 + 3]).toBe(0);
  });

  it('prediction modes paint the prediction; gt mode paints nothing', () => {
    const img = out();
    expect(paintOverlay('pred', gt, pred, img)).toBeNull();
    expect([...img.data.slice(0, 4)]).toEqual([239, 68, 68, 150]);
    paintOverlay('both', gt, pred, img);
    expect(img.data[3]).toBe(90);
    paintOverlay('gt', gt, pred, img);
    expect(img.data.every((v) => v === 0)).toBe(true);
  });
});
