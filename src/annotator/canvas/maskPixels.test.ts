import { describe, expect, it } from 'vitest';
import { maskBoxPixels } from './maskPixels';

describe('maskBoxPixels', () => {
  const map = { width: 4, height: 4, data: new Uint8Array([0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 2]) };
  it('fills every state pixel of the box', () => {
    const out = new Uint8ClampedArray(16 * 4);
    maskBoxPixels(map, { x: 0, y: 0, w: 4, h: 4 }, 'fill', out);
    const alpha = Array.from({ length: 16 }, (_, i) => out[i * 4 + 3]);
    expect(alpha.filter((a) => a === 255)).toHaveLength(5);
  });
  it('keeps only pixels with a differing 4-neighbour in outline mode', () => {
    const big = { width: 5, height: 5, data: new Uint8Array(25) };
    for (let y = 1; y < 4; y++) for (let x = 1; x < 4; x++) big.data[y * 5 + x] = 1;
    const out = new Uint8ClampedArray(25 * 4);
    maskBoxPixels(big, { x: 0, y: 0, w: 5, h: 5 }, 'outline', out);
    const on = Array.from({ length: 25 }, (_, i) => out[i * 4 + 3] === 255);
    expect(on.filter(Boolean)).toHaveLength(8); // the 3x3 square minus its centre
    expect(on[12]).toBe(false);
  });
  it('writes only the requested box', () => {
    const out = new Uint8ClampedArray(2 * 2 * 4);
    maskBoxPixels(map, { x: 2, y: 2, w: 2, h: 2 }, 'fill', out);
    expect([out[3], out[7], out[11], out[15]]).toEqual([255, 0, 0, 255]); // (2,2) actionable, (3,3) transformed
  });
});
