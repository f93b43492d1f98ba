import { describe, expect, it } from 'vitest';
import { solidImage } from '../../testing/inference';
import { normaliseBox, officialPromptArrays, SAM_PIXEL_MEAN, SAM_PIXEL_STD, samGeometry, samPixelValues, toModelFrame, validatePrompt } from './samGeometry';

describe('samGeometry', () => {
  it('scales the longest side to 1024 and rounds half up', () => {
    expect(samGeometry(640, 360)).toMatchObject({ resizedWidth: 1024, resizedHeight: 576 });
    expect(samGeometry(1920, 1080)).toMatchObject({ resizedWidth: 1024, resizedHeight: 576 });
    expect(samGeometry(360, 640)).toMatchObject({ resizedWidth: 576, resizedHeight: 1024 });
    // 1025 * 0.5 = 512.5 -> 513 (int(x + 0.5)), not banker's 512.
    expect(samGeometry(2048, 1025)).toMatchObject({ resizedWidth: 1024, resizedHeight: 513 });
    expect(samGeometry(1000, 333)).toMatchObject({ resizedWidth: 1024, resizedHeight: 341 });
    expect(() => samGeometry(0, 10)).toThrow(RangeError);
  });

  it('maps prompt coordinates by the actual resize ratio per axis', () => {
    const g = samGeometry(1000, 333); // 1024 x 341
    const [x, y] = toModelFrame(500, 333, g);
    expect(x).toBeCloseTo(512, 6);
    expect(y).toBeCloseTo(341, 6);
  });
});

describe('samPixelValues', () => {
  it('normalises with SAM mean/std and zero-pads bottom/right', () => {
    const { data, geometry } = samPixelValues(solidImage(64, 32, [255, 128, 0]));
    expect(geometry).toMatchObject({ resizedWidth: 1024, resizedHeight: 512 });
    const side = 1024;
    const plane = side * side;
    const expected = [255, 128, 0].map((v, c) => (v - SAM_PIXEL_MEAN[c]) / SAM_PIXEL_STD[c]);
    for (let c = 0; c < 3; c++) {
      expect(data[c * plane]).toBeCloseTo(expected[c], 5);
      expect(data[c * plane + 511 * side + 1023]).toBeCloseTo(expected[c], 5); // last real pixel
      expect(data[c * plane + 512 * side]).toBe(0); // first padded row
    }
  });
});

describe('official prompt arrays', () => {
  const g = samGeometry(640, 360);

  it('appends the (0,0,-1) padding point when there is no box', () => {
    const p = officialPromptArrays({ points: [{ x: 100, y: 50, positive: true }, { x: 10, y: 20, positive: false }] }, g);
    expect(p.count).toBe(3);
    expect([...p.labels]).toEqual([1, 0, -1]);
    expect([...p.coords]).toEqual([160, 80, 16, 32, 0, 0]);
  });

  it('encodes a box as corners labelled 2 and 3, normalising a reversed drag', () => {
    const p = officialPromptArrays({ points: [], box: { x0: 200, y0: 100, x1: 100, y1: 50 } }, g);
    expect([...p.labels]).toEqual([2, 3]);
    expect([...p.coords]).toEqual([160, 80, 320, 160]);
    expect(normaliseBox({ x0: 3, y0: 4, x1: 1, y1: 2 })).toEqual({ x0: 1, y0: 2, x1: 3, y1: 4 });
  });

  it('refuses empty or non-finite prompts and wrong-sized mask inputs', () => {
    expect(() => validatePrompt({ points: [] })).toThrow(/at least one point or a box/);
    expect(() => validatePrompt({ points: [{ x: NaN, y: 1, positive: true }] })).toThrow(/not finite/);
    expect(() => validatePrompt({ points: [{ x: 1, y: 1, positive: true }], maskInput: new Float32Array(10) })).toThrow(/256x256/);
  });
});
