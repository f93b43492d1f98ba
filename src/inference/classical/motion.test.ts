import { describe, expect, it } from 'vitest';
import { estimateShift } from './motion';
import { paintDisc, texture } from './synthetic';
import type { RgbaImage } from '../../masks/labelMap';

/** A textured disc pasted at (cx, cy) on a background texture. */
function withDisc(background: RgbaImage, object: RgbaImage, objMask: Uint8Array, dx: number, dy: number): RgbaImage {
  const out = { width: background.width, height: background.height, data: new Uint8ClampedArray(background.data) };
  for (let y = 0; y < background.height; y++) {
    for (let x = 0; x < background.width; x++) {
      const sx = x - dx;
      const sy = y - dy;
      if (sx < 0 || sy < 0 || sx >= object.width || sy >= object.height || !objMask[sy * object.width + sx]) continue;
      for (let c = 0; c < 4; c++) out.data[(y * out.width + x) * 4 + c] = object.data[(sy * object.width + sx) * 4 + c];
    }
  }
  return out;
}

function boxOf(mask: Uint8Array, w: number) {
  let x0 = w, y0 = Infinity, x1 = -1, y1 = -1;
  for (let i = 0; i < mask.length; i++) if (mask[i]) {
    const x = i % w, y = Math.floor(i / w);
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  const box = { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  const crop = new Uint8Array(box.w * box.h);
  for (let y = 0; y < box.h; y++) for (let x = 0; x < box.w; x++) crop[y * box.w + x] = mask[(box.y + y) * w + box.x + x];
  return { box, crop };
}

describe('estimateShift (masked template matching over a pyramid)', () => {
  const object = texture(320, 240, 5, 8, 30);
  const mask = paintDisc(object, 100, 120, 30, [200, 80, 60], 3, 60);
  const bg = texture(320, 240, 77);
  const a = withDisc(bg, object, mask, 0, 0);
  const { box, crop } = boxOf(mask, 320);

  it('finds a move of more than the object\'s size in one jump, on a background that did not move', () => {
    const b = withDisc(bg, object, mask, 71, -23);
    const s = estimateShift(a, b, { box, mask: crop, radius: 90 });
    expect([s.dx, s.dy]).toEqual([71, -23]);
    expect(s.rms).toBeLessThan(1);
  });

  it('follows a small step around a prediction, and a brightness change costs nothing', () => {
    const b = withDisc(bg, object, mask, 12, 5);
    for (let i = 0; i < b.data.length; i += 4) for (let c = 0; c < 3; c++) b.data[i + c] = Math.min(255, b.data[i + c] + 10);
    const s = estimateShift(a, b, { box, mask: crop, predicted: { dx: 10, dy: 4 }, radius: 6 });
    expect([s.dx, s.dy]).toEqual([12, 5]);
    expect(s.rms).toBeLessThan(6);
  });

  it('reports an object whose look-alike is in the window as ambiguous, a unique one as not', () => {
    const b = withDisc(bg, object, mask, 40, 0);
    const unique = estimateShift(a, b, { box, mask: crop, radius: 90 });
    const twin = withDisc(b, object, mask, 150, 0);
    const twice = estimateShift(a, twin, { box, mask: crop, radius: 200 });
    expect(unique.ambiguity).toBeLessThan(0.3);
    expect(twice.ambiguity).toBeGreaterThan(0.5);
  });

  it('finds a long thin object (a carrot, 200 x 30 px) in a bounded number of comparisons, at native rate and in one jump', () => {
    // The search radius follows the long side while the old pyramid stopped at the short one: the
    // search ran at full resolution, about 15 million comparisons per native step.
    const bar = new Uint8Array(320 * 240);
    for (let y = 100; y < 130; y++) for (let x = 40; x < 240; x++) bar[y * 320 + x] = 1;
    const a2 = withDisc(bg, object, bar, 0, 0);
    const { box: barBox, crop: barCrop } = boxOf(bar, 320);
    const step = estimateShift(a2, withDisc(bg, object, bar, 9, -3), { box: barBox, mask: barCrop, predicted: { dx: 8, dy: 0 }, radius: 30 });
    expect([step.dx, step.dy]).toEqual([9, -3]);
    expect(step.work).toBeLessThan(3_000_000);
    const jump = estimateShift(a2, withDisc(bg, object, bar, 61, 77), { box: barBox, mask: barCrop, radius: 250 });
    expect([jump.dx, jump.dy]).toEqual([61, 77]);
    expect(jump.work).toBeLessThan(5_000_000);
  });
});
