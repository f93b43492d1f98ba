import { describe, expect, it } from 'vitest';
import {
  type BoxXYXY,
  boxIoU,
  evaluateGrounding,
  recallAtThresholds,
  summarizeGrounding,
  temporalIoU,
  xywhToXyxy,
} from './grounding';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

describe('grounding (vectors §5, G1)', () => {
  const gtBoxes = new Map<number, BoxXYXY>();
  for (let t = 10; t < 20; t++) gtBoxes.set(t, [0, 0, 10, 10]);
  const predBoxes = new Map<number, BoxXYXY>();
  for (let t = 15; t < 30; t++) predBoxes.set(t, [0, 0, 10, 10]);
  for (let t = 10; t < 15; t++) predBoxes.set(t, [0, 0, 10, 10]); // outside the predicted moment: unused by vIoU
  predBoxes.set(17, [5, 0, 15, 10]);
  predBoxes.set(18, [5, 0, 15, 10]);
  predBoxes.set(19, [20, 20, 30, 30]);
  const r = evaluateGrounding({ gt: { interval: { start: 10, end: 20 }, boxes: gtBoxes }, pred: { interval: { start: 15, end: 30 }, boxes: predBoxes } });

  it('tIoU 0.25', () => close(r.tIoU, 0.25));
  it('vIoU 0.133333333333 (union [10, 30))', () => close(r.vIoU, 0.133333333333));
  it('mean IoU over GT frames 0.766666666667', () => close(r.gtIoU, 0.766666666667));
  it('box IoU 1/3 and 0', () => {
    close(boxIoU([0, 0, 10, 10], [5, 0, 15, 10]), 1 / 3);
    expect(boxIoU([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
  });
});

describe('grounding edge cases', () => {
  it('tIoU is 0 for disjoint or touching intervals and 1 for identical ones', () => {
    expect(temporalIoU({ start: 0, end: 5 }, { start: 5, end: 9 })).toBe(0);
    expect(temporalIoU({ start: 3, end: 9 }, { start: 3, end: 9 })).toBe(1);
    expect(temporalIoU({ start: 3, end: 3 }, { start: 3, end: 9 })).toBe(0);
  });

  it('degenerate boxes and missing predicted boxes score 0', () => {
    expect(boxIoU([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
    const gt = new Map<number, BoxXYXY>([[0, [0, 0, 2, 2]]]);
    const r = evaluateGrounding({ gt: { interval: { start: 0, end: 1 }, boxes: gt }, pred: { interval: { start: 0, end: 1 }, boxes: new Map() } });
    expect(r).toMatchObject({ tIoU: 1, vIoU: 0, gtIoU: 0 });
  });

  it('converts xywh to xyxy', () => expect(xywhToXyxy([1, 2, 3, 4])).toEqual([1, 2, 4, 6]));

  it('R1@theta uses >=', () => {
    const rec = recallAtThresholds([0.3, 0.5, 0.7, 0.69, NaN]);
    expect(rec[0.3]).toBe(1);
    expect(rec[0.5]).toBe(0.75);
    expect(rec[0.7]).toBe(0.25);
    expect(Number.isNaN(recallAtThresholds([])[0.5])).toBe(true);
  });

  it('summarises means and recalls over queries', () => {
    const s = summarizeGrounding([
      { tIoU: 0.5, vIoU: 0.2, gtIoU: 0.6 },
      { tIoU: 0.1, vIoU: 0.4, gtIoU: NaN },
    ]);
    expect(s.queries).toBe(2);
    close(s.mTIoU, 0.3);
    close(s.mGtIoU, 0.6);
    expect(s.r1[0.5]).toBe(0.5);
    expect(s.vIoUAt[0.3]).toBe(0.5);
  });
});
