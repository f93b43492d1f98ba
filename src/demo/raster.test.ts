import { describe, expect, it } from 'vitest';
import { capsule, drawColor, drawLabels, ellipse, polygon, rect, rgb, rowSpan, solidPaint, type ColorTarget, type DrawItem } from './raster';

function count(labels: Uint8Array, v: number): number {
  let n = 0;
  for (const x of labels) if (x === v) n++;
  return n;
}

function labelsOf(item: DrawItem, w = 64, h = 48, dx = 0, dy = 0): Uint8Array {
  const out = new Uint8Array(w * h);
  drawLabels(out, w, h, item, dx, dy);
  return out;
}

describe('raster', () => {
  it('covers exactly the pixels whose centres are inside (half-open)', () => {
    const item: DrawItem = { shape: rect(0, 0, 10, 5), ax: 3, ay: 4, paint: solidPaint(0, 1) };
    const l = labelsOf(item);
    expect(count(l, 1)).toBe(50);
    expect(l[4 * 64 + 3]).toBe(1);
    expect(l[4 * 64 + 12]).toBe(1);
    expect(l[4 * 64 + 13]).toBe(0);
    expect(l[8 * 64 + 3]).toBe(1);
    expect(l[9 * 64 + 3]).toBe(0);
  });

  it('rowSpan handles half-pixel edges consistently', () => {
    const s = rect(0.5, 0.5, 2, 2); // centres at 0.5 and 1.5 inside (0.5 <= c < 2.5), 2.5 outside
    expect(rowSpan(s, 0)).toEqual([0, 2]);
    expect(rowSpan(s, 2)).toBeNull();
  });

  it('integer translation moves the pixel set exactly', () => {
    const shape = ellipse(0.3, -0.2, 9.7, 6.1, 0.4);
    const a = labelsOf({ shape, ax: 20, ay: 20, paint: solidPaint(0, 1) });
    const b = labelsOf({ shape, ax: 20, ay: 20, paint: solidPaint(0, 1) }, 64, 48, 7, -3);
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < 64; x++) {
        const yy = y - 3;
        const xx = x + 7;
        if (yy >= 0 && yy < 48 && xx < 64) expect(b[yy * 64 + xx]).toBe(a[y * 64 + x]);
      }
    }
    expect(count(a, 1)).toBe(count(b, 1));
  });

  it('ellipse and capsule areas are close to the analytic ones', () => {
    const e = labelsOf({ shape: ellipse(0, 0, 15, 10), ax: 30, ay: 24, paint: solidPaint(0, 1) });
    expect(Math.abs(count(e, 1) - Math.PI * 150) / (Math.PI * 150)).toBeLessThan(0.03);
    const c = labelsOf({ shape: capsule(0, 0, 20, 0, 5), ax: 20, ay: 24, paint: solidPaint(0, 1) });
    const area = 20 * 10 + Math.PI * 25;
    expect(Math.abs(count(c, 1) - area) / area).toBeLessThan(0.04);
  });

  it('column clips nest: a tighter clip is a subset', () => {
    const shape = capsule(2, 0, 40, 0, 3, 8);
    let prev = Infinity;
    for (let k = 0; k <= 51; k += 3) {
      const n = count(labelsOf({ shape, ax: 5, ay: 24, paint: solidPaint(0, 1), clipK0: k }), 1);
      expect(n).toBeLessThanOrEqual(prev);
      prev = n;
    }
    expect(prev).toBe(0);
  });

  it('colour and label passes touch the same pixels; off-frame parts are clipped', () => {
    const w = 32;
    const h = 24;
    const item: DrawItem = { shape: polygon([-10, -10, 20, -5, 15, 30, -8, 12]), ax: 10, ay: 4, paint: solidPaint(rgb(255, 0, 0), 2) };
    const u8 = new Uint8ClampedArray(w * h * 4);
    const target: ColorTarget = { width: w, height: h, u8, u32: new Uint32Array(u8.buffer) };
    drawColor(target, item);
    const l = labelsOf(item, w, h);
    for (let i = 0; i < w * h; i++) expect(u8[i * 4] === 255).toBe(l[i] === 2);
    expect(u8[(10 * w + 10) * 4 + 3]).toBe(255); // alpha of a covered pixel
    expect(l[10 * w + 10]).toBe(2);
  });

  it('rgb packs into RGBA byte order', () => {
    const u32 = new Uint32Array([rgb(1, 2, 3)]);
    expect(Array.from(new Uint8Array(u32.buffer))).toEqual([1, 2, 3, 255]);
    expect(() => polygon([0, 0, 1, 1])).toThrow(RangeError);
    expect(() => labelsOf({ shape: rect(0, 0, 2, 2), ax: 0.5, ay: 0, paint: solidPaint(0, 1) })).toThrow(RangeError);
  });
});
