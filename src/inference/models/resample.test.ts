import { describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../masks/labelMap';
import { solidImage } from '../../testing/inference';
import { resampleRgb } from './resample';

function image(width: number, height: number, f: (x: number, y: number) => [number, number, number]): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([...f(x, y), 255], (y * width + x) * 4);
  return { width, height, data };
}

describe('resampleRgb', () => {
  it('returns the pixels unchanged at the same size (both filters), as planar RGB', () => {
    const img = image(5, 3, (x, y) => [x * 40, y * 60, (x * y * 17) % 256]);
    for (const f of ['bilinear', 'bicubic'] as const) {
      const out = resampleRgb(img, 5, 3, f);
      for (let y = 0; y < 3; y++) {
        for (let x = 0; x < 5; x++) {
          const i = y * 5 + x;
          expect([out[i], out[15 + i], out[30 + i]]).toEqual([img.data[i * 4], img.data[i * 4 + 1], img.data[i * 4 + 2]]);
        }
      }
    }
  });

  it('keeps a constant image constant when scaling up or down', () => {
    const img = solidImage(37, 23, [200, 10, 99]);
    for (const [w, h] of [[100, 60], [9, 5], [37, 1]] as const) {
      for (const f of ['bilinear', 'bicubic'] as const) {
        const out = resampleRgb(img, w, h, f);
        const n = w * h;
        expect(out.subarray(0, n).every((v) => v === 200)).toBe(true);
        expect(out.subarray(n, 2 * n).every((v) => v === 10)).toBe(true);
        expect(out.subarray(2 * n).every((v) => v === 99)).toBe(true);
      }
    }
  });

  it('antialiases when down-scaling, like Pillow (a 1-px stripe pattern averages out)', () => {
    // Without antialiasing, 2x bilinear down-scaling of alternating 0/255 columns samples at pixel
    // boundaries and still gives 127/128 here, so use 4x: plain bilinear would alias to 0 or 255.
    const img = image(64, 4, (x) => (x % 2 ? [255, 255, 255] : [0, 0, 0]));
    const out = resampleRgb(img, 16, 1, 'bilinear');
    for (let x = 2; x < 14; x++) expect(Math.abs(out[x] - 127.5)).toBeLessThan(20);
  });

  it('a region of the resized image equals the same pixels of the full resize', () => {
    const img = image(50, 40, (x, y) => [(x * 5) % 256, (y * 6) % 256, ((x + y) * 3) % 256]);
    const full = resampleRgb(img, 30, 24, 'bicubic');
    const part = resampleRgb(img, 30, 24, 'bicubic', { x: 7, y: 5, w: 10, h: 8 });
    for (let c = 0; c < 3; c++) {
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 10; x++) expect(part[c * 80 + y * 10 + x]).toBe(full[c * 720 + (y + 5) * 30 + x + 7]);
      }
    }
    expect(() => resampleRgb(img, 30, 24, 'bicubic', { x: 25, y: 0, w: 10, h: 1 })).toThrow(/outside/);
  });

  it('bicubic overshoots at a hard edge and is clamped to 0..255', () => {
    const img = image(8, 1, (x) => (x < 4 ? [0, 0, 0] : [255, 255, 255]));
    const out = resampleRgb(img, 32, 1, 'bicubic');
    expect(Math.min(...out.subarray(0, 32))).toBe(0);
    expect(Math.max(...out.subarray(0, 32))).toBe(255);
    // Monotone step apart from the clamped overshoot.
    expect(out[0]).toBe(0);
    expect(out[31]).toBe(255);
  });
});
