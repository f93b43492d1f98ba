import { describe, expect, it } from 'vitest';
import { BARCODE_MAX, barcodeCellSize, barcodeCells, barcodeRect, crc4, drawBarcode, readBarcode } from './barcode';
import { addNoise, boxBlur, cropTopLeft, jpegLike, scaleBrightness, studioRange } from './lossy';
import { createRng } from './random';
import type { RgbaImage } from '../masks/labelMap';

/** A busy backdrop (random texture) so the barcode is not read off a flat image. */
function backdrop(w: number, h: number, seed = 5): RgbaImage {
  const rng = createRng(seed);
  const data = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const v = 60 + rng.int(140);
    data[i * 4] = v;
    data[i * 4 + 1] = (v * 3) >> 2;
    data[i * 4 + 2] = v >> 1;
    data[i * 4 + 3] = 255;
  }
  return { width: w, height: h, data };
}

function withCode(value: number, w = 640, h = 360): RgbaImage {
  const img = backdrop(w, h);
  expect(drawBarcode(img, value)).toBe(true);
  return img;
}

/** Applies a damage function to the top rows only (where the barcode is), for speed. */
function top(img: RgbaImage, fn: (part: RgbaImage) => RgbaImage, rows = 64): RgbaImage {
  const part = fn({ width: img.width, height: rows, data: img.data.slice(0, img.width * rows * 4) });
  const data = new Uint8ClampedArray(img.data);
  data.set(part.data, 0);
  return { width: img.width, height: img.height, data };
}

const rng = createRng(99);
const VALUES = [0, 1, 2, 3, 255, 256, 4095, 12345, 32767, 32768, 65534, BARCODE_MAX, ...Array.from({ length: 60 }, () => rng.int(BARCODE_MAX + 1))];

describe('barcode', () => {
  it('sizes cells by frame size: 8 px at 360p, 16 px at 720p and up', () => {
    expect(barcodeCellSize(640, 360)).toBe(8);
    expect(barcodeCellSize(1280, 720)).toBe(16);
    expect(barcodeCellSize(1920, 1080)).toBe(16);
    expect(barcodeCellSize(320, 180)).toBe(4);
    expect(barcodeRect(640, 360)).toEqual({ x: 0, y: 0, w: 224, h: 24 });
    expect(barcodeRect(20, 4)).toEqual({ x: 0, y: 0, w: 0, h: 0 });
  });

  it('encodes guards, data and check cells', () => {
    const cells = barcodeCells(0b1010_0000_0000_0001);
    expect(cells).toHaveLength(26);
    expect(cells.slice(0, 3)).toEqual([0, 1, 0]);
    expect(cells.slice(3, 7)).toEqual([1, 0, 1, 0]);
    expect(cells.slice(-3)).toEqual([1, 0, 1]);
    expect(() => barcodeCells(-1)).toThrow(RangeError);
    expect(() => barcodeCells(BARCODE_MAX + 1)).toThrow(RangeError);
    expect(() => barcodeCells(1.5)).toThrow(RangeError);
    // Any single data-bit flip changes the check bits.
    for (let b = 0; b < 16; b++) expect(crc4(12345 ^ (1 << b))).not.toBe(crc4(12345));
  });

  it('round-trips many values on clean images, at 360p, 720p and small sizes', () => {
    for (const v of VALUES) expect(readBarcode(withCode(v))).toBe(v);
    for (const v of VALUES.slice(0, 12)) {
      expect(readBarcode(withCode(v, 1280, 720))).toBe(v);
      expect(readBarcode(withCode(v, 320, 180))).toBe(v);
      expect(readBarcode(withCode(v, 1000, 600))).toBe(v);
    }
  });

  it('survives ±40 grey levels of noise plus a blur', () => {
    for (const v of VALUES) {
      const img = top(withCode(v), (p) => boxBlur(addNoise(p, 40, v + 1), 1));
      expect(readBarcode(img)).toBe(v);
      expect(readBarcode(top(withCode(v), (p) => addNoise(boxBlur(p, 2), 40, v + 7)))).toBe(v);
    }
  });

  it('survives simulated JPEG / video coding (8x8 DCT quantisation, chroma subsampling, studio range, lighting)', () => {
    for (const v of VALUES.slice(0, 20)) {
      const clean = withCode(v);
      expect(readBarcode(top(clean, (p) => jpegLike(p, 30)))).toBe(v);
      expect(readBarcode(top(clean, (p) => studioRange(jpegLike(addNoise(p, 20, v), 15))))).toBe(v);
      expect(readBarcode(top(clean, (p) => scaleBrightness(boxBlur(jpegLike(p, 40), 1), 0.7, 20)))).toBe(v);
    }
    const big = withCode(54321, 1280, 720);
    expect(readBarcode(top(big, (p) => jpegLike(addNoise(p, 40, 3), 20), 96))).toBe(54321);
  });

  it('falls back to other cell sizes when the frame was resized or cropped', () => {
    const img = withCode(4242, 1280, 720); // 16 px cells
    expect(readBarcode(cropTopLeft(img, 640, 360))).toBe(4242);
  });

  it('returns null without a barcode or when guards / check bits are wrong', () => {
    expect(readBarcode(backdrop(640, 360))).toBeNull();
    const flat = { width: 640, height: 360, data: new Uint8ClampedArray(640 * 360 * 4).fill(255) };
    expect(readBarcode(flat)).toBeNull();
    expect(readBarcode({ width: 10, height: 4, data: new Uint8ClampedArray(160) })).toBeNull();
    // Break the start guard: paint its middle (white) cell black.
    const img = withCode(777);
    const c = 8;
    for (let y = c; y < 2 * c; y++) for (let x = 2 * c; x < 3 * c; x++) img.data.fill(0, (y * 640 + x) * 4, (y * 640 + x) * 4 + 3);
    expect(readBarcode(img)).toBeNull();
    // Flip one data cell: the check bits reject it.
    const img2 = withCode(777);
    const cell = 3 + 15; // least significant data bit, value 777 is odd -> white
    for (let y = c; y < 2 * c; y++) for (let x = (1 + cell) * c; x < (2 + cell) * c; x++) img2.data.fill(0, (y * 640 + x) * 4, (y * 640 + x) * 4 + 3);
    expect(readBarcode(img2)).toBeNull();
  });

  it('rejects random noise images (no false positives)', () => {
    for (let s = 0; s < 10; s++) expect(readBarcode(top(backdrop(640, 360, s), (p) => addNoise(p, 120, s)))).toBeNull();
  });
});
