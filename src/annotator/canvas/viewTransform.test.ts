import { describe, expect, it } from 'vitest';
import { fitTransform, MAX_SCALE, toImage, zoomAround } from './viewTransform';

describe('view transform', () => {
  it('fits and centres the image', () => {
    const t = fitTransform(200, 100, 432, 232, 16);
    expect(t.scale).toBe(2);
    expect(toImage(t, 216, 116)).toEqual({ x: 100, y: 50 });
  });
  it('zooms around the pointer, keeping the image point under it', () => {
    const t = zoomAround({ scale: 1, x: 10, y: 20 }, 4, 110, 70);
    expect(toImage(t, 110, 70)).toEqual({ x: 100, y: 50 });
    expect(t.scale).toBe(4);
  });
  it('clamps zoom to 16x', () => {
    expect(zoomAround({ scale: 8, x: 0, y: 0 }, 10, 0, 0).scale).toBe(MAX_SCALE);
  });
});
