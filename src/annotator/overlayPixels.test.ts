import { describe, expect, it } from 'vitest';
import { paintOverlay, STATE_COLOURS } from './overlayPixels';

describe('paintOverlay', () => {
  it('colours states and clears the rest, within the box only', () => {
    const map = { width: 3, height: 1, data: new Uint8Array([1, 2, 0]) };
    const out = new Uint8ClampedArray(12).fill(9);
    paintOverlay(map, out, 1, { x: 0, y: 0, w: 2, h: 1 });
    expect([...out.subarray(0, 4)]).toEqual([...STATE_COLOURS[1], 255]);
    expect([...out.subarray(4, 8)]).toEqual([...STATE_COLOURS[2], 255]);
    expect([...out.subarray(8, 12)]).toEqual([9, 9, 9, 9]);
    paintOverlay(map, out, 0.5);
    expect(out[3]).toBe(128);
    expect(out[11]).toBe(0);
  });
});
