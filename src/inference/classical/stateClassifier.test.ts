import { describe, expect, it } from 'vitest';
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import { pixelFeatures, predictStates, trainStateModel } from './stateClassifier';
import { rng } from './synthetic';

/**
 * A grey noisy background with a smooth red "actionable" block and a busy orange "transformed"
 * block (speckled, like shreds), placed at `layout`.
 */
function frame(seed: number, act: [number, number, number, number], trf: [number, number, number, number]): { image: RgbaImage; labels: LabelMap } {
  const width = 160;
  const height = 120;
  const r = rng(seed);
  const data = new Uint8ClampedArray(width * height * 4);
  const labels = new Uint8Array(width * height);
  const inside = (b: number[], x: number, y: number) => x >= b[0] && y >= b[1] && x < b[0] + b[2] && y < b[1] + b[3];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let rgb: number[];
      if (inside(act, x, y)) {
        labels[i] = 1;
        rgb = [200 + r() * 10, 50 + r() * 10, 40 + r() * 10];
      } else if (inside(trf, x, y)) {
        labels[i] = 2;
        const v = r() < 0.5 ? 0.55 : 1;
        rgb = [240 * v, 150 * v, 60 * v];
      } else {
        const g = 90 + r() * 60;
        rgb = [g, g, g + 10];
      }
      data.set([rgb[0], rgb[1], rgb[2], 255], i * 4);
    }
  }
  return { image: { width, height, data }, labels: { width, height, data: labels } };
}

function accuracy(pred: Uint8Array, truth: Uint8Array, where?: Uint8Array): number {
  let ok = 0;
  let n = 0;
  for (let i = 0; i < pred.length; i++) {
    if (where && !where[i]) continue;
    n++;
    if (pred[i] === truth[i]) ok++;
  }
  return ok / n;
}

describe('state classifier', () => {
  it('computes Lab colour and local texture', () => {
    const white = { width: 4, height: 4, data: new Uint8ClampedArray(64).fill(255) };
    const f = pixelFeatures(white, 1);
    expect(f[0]).toBeCloseTo(100, 0);
    expect(Math.abs(f[1])).toBeLessThan(0.5);
    expect(f[4]).toBeCloseTo(0, 3);
  });

  it('labels a new layout of two-colour state regions after training on other frames', () => {
    const train = [frame(1, [10, 10, 50, 40], [90, 60, 50, 40]), frame(2, [20, 70, 40, 30], [80, 5, 60, 50])];
    const model = trainStateModel(train);
    expect(model.classes).toEqual([0, 1, 2]);
    const test = frame(3, [100, 20, 45, 45], [15, 50, 55, 55]);
    const p = predictStates(model, test.image);
    expect(accuracy(p.labels, test.labels.data)).toBeGreaterThan(0.95);
    expect(p.meanConfidence).toBeGreaterThan(0.8);
  });

  it('inside a target mask only the two states compete and nothing outside changes', () => {
    const model = trainStateModel([frame(4, [10, 10, 50, 40], [90, 60, 50, 40])]);
    const test = frame(5, [30, 30, 40, 40], [70, 30, 40, 40]);
    const object = test.labels.data.map((v) => (v ? 1 : 0));
    const p = predictStates(model, test.image, object);
    expect(accuracy(p.labels, test.labels.data, object)).toBeGreaterThan(0.97);
    for (let i = 0; i < object.length; i++) if (!object[i]) expect(p.labels[i]).toBe(0);
    expect([...p.labels].filter((v, i) => object[i] && v === 0)).toEqual([]);
  });

  it('says clearly when there is nothing to learn from', () => {
    const empty = frame(6, [0, 0, 0, 0], [0, 0, 0, 0]);
    expect(() => trainStateModel([empty])).toThrow(/no labelled actionable or transformed pixels/);
    expect(() => trainStateModel([{ image: empty.image, labels: { width: 2, height: 2, data: new Uint8Array(4) } }])).toThrow(/training frame 1/);
  });
});
