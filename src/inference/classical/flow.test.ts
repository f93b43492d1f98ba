import { beforeAll, describe, expect, it } from 'vitest';
import type { Cv } from './cv';
import { propagateByFlow } from './flow';
import { centroid, iou, paintDisc, texture, translate, translateMask } from './synthetic';
import { nodeCv } from '../../testing/opencv';

let cv: Cv;
beforeAll(async () => {
  cv = (await nodeCv()).cv;
});

function scene() {
  const prev = texture(320, 240, 11);
  const obj = paintDisc(prev, 150, 110, 40, [220, 120, 60], 3, 40);
  // Half actionable, half transformed, so both labels have to travel.
  const data = new Uint8Array(obj.length);
  for (let i = 0; i < obj.length; i++) if (obj[i]) data[i] = i % 320 < 150 ? 1 : 2;
  return { prev, labels: { width: 320, height: 240, data } };
}

describe('propagateByFlow', () => {
  it('moves the labels with a translated frame (within 1.5 px) and is confident', () => {
    const { prev, labels } = scene();
    const next = translate(prev, 6, -4);
    const { map, confidence } = propagateByFlow(cv, prev, next, labels);
    const want = translateMask(labels, 6, -4);
    for (const label of [1, 2]) {
      const a = centroid(labels.data, 320, label);
      const b = centroid(map.data, 320, label);
      expect(Math.abs(b.x - a.x - 6)).toBeLessThan(1.5);
      expect(Math.abs(b.y - a.y + 4)).toBeLessThan(1.5);
      expect(iou(map.data, want.data, label)).toBeGreaterThan(0.85);
    }
    expect(confidence).toBeGreaterThan(0.8);
  });

  it('is far less confident on an unrelated frame', () => {
    const { prev, labels } = scene();
    const same = propagateByFlow(cv, prev, translate(prev, 3, 2), labels).confidence;
    const other = propagateByFlow(cv, prev, texture(320, 240, 12345), labels).confidence;
    expect(other).toBeLessThan(0.5);
    expect(other).toBeLessThan(same - 0.3);
  });

  it('keeps the labels where they are on an identical frame and rejects mismatched sizes', () => {
    const { prev, labels } = scene();
    const { map, confidence } = propagateByFlow(cv, prev, prev, labels);
    expect(iou(map.data, labels.data, 1)).toBeGreaterThan(0.97);
    expect(confidence).toBeGreaterThan(0.95);
    expect(() => propagateByFlow(cv, prev, texture(100, 100, 1), labels)).toThrow(/differ in size/);
  });

  it('computes flow at reduced size for large frames and scales it back', () => {
    const prev = texture(960, 540, 21, 24);
    const obj = paintDisc(prev, 400, 260, 90, [60, 160, 230], 4, 40);
    const labels = { width: 960, height: 540, data: obj };
    const next = translate(prev, -8, 5);
    const { map } = propagateByFlow(cv, prev, next, labels, { maxSide: 480 });
    const a = centroid(obj, 960);
    const b = centroid(map.data, 960);
    expect(Math.abs(b.x - a.x + 8)).toBeLessThan(2);
    expect(Math.abs(b.y - a.y - 5)).toBeLessThan(2);
  });
});
