import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../../masks/labelMap';
import type { Point } from './brush';
import { polygonSpans, type FillRule } from './polygon';
import { paintSpans } from './spans';
import { paintTable } from './paintRule';

function raster(points: Point[], w: number, h: number, rule: FillRule = 'nonzero'): Uint8Array {
  const map = createLabelMap(w, h);
  paintSpans(map, polygonSpans(points, w, h, rule), paintTable(1, false));
  return map.data;
}

const count = (a: Uint8Array) => a.reduce((n, v) => n + v, 0);
const pts = (...xy: number[]): Point[] => Array.from({ length: xy.length / 2 }, (_, i) => ({ x: xy[2 * i], y: xy[2 * i + 1] }));

/** Reference: winding number of the pixel centre, pixel by pixel. */
function bruteForce(points: Point[], w: number, h: number, rule: FillRule): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      let wn = 0;
      for (let i = 0; i < points.length; i++) {
        const a = points[i];
        const b = points[(i + 1) % points.length];
        if (a.y <= py && b.y > py && (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y) > 0) wn++;
        else if (a.y > py && b.y <= py && (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y) < 0) wn--;
      }
      out[y * w + x] = (rule === 'nonzero' ? wn !== 0 : (wn & 1) === 1) ? 1 : 0;
    }
  }
  return out;
}

function nearEdge(points: Point[], px: number, py: number): boolean {
  return points.some((a, i) => {
    const b = points[(i + 1) % points.length];
    const vx = b.x - a.x;
    const vy = b.y - a.y;
    const len2 = vx * vx + vy * vy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - a.x) * vx + (py - a.y) * vy) / len2));
    return Math.hypot(px - a.x - t * vx, py - a.y - t * vy) < 1e-6;
  });
}

describe('polygonSpans', () => {
  it('fills an integer square exactly: 10 x 10 = 100 pixels', () => {
    const data = raster(pts(10, 10, 20, 10, 20, 20, 10, 20), 40, 40);
    expect(count(data)).toBe(100);
    expect(data[10 * 40 + 10]).toBe(1);
    expect(data[19 * 40 + 19]).toBe(1);
    expect(data[20 * 40 + 20]).toBe(0);
  });

  it('fills a right triangle by pixel centres: legs 10 -> 45 pixels (centres on the hypotenuse are out)', () => {
    expect(count(raster(pts(0, 0, 10, 0, 0, 10), 20, 20))).toBe(45);
    // The same triangle in the other orientation gives the same count.
    expect(count(raster(pts(0, 0, 0, 10, 10, 0), 20, 20))).toBe(45);
  });

  it('two polygons sharing an edge never both claim a pixel', () => {
    const a = raster(pts(2, 2, 17.3, 2, 9.1, 15.7), 20, 20);
    const b = raster(pts(17.3, 2, 19, 18, 9.1, 15.7), 20, 20);
    for (let i = 0; i < a.length; i++) expect(a[i] + b[i]).toBeLessThanOrEqual(1);
  });

  it('clips to the image', () => {
    expect(count(raster(pts(-5, -5, 50, -5, 50, 50, -5, 50), 10, 8))).toBe(80);
    expect(count(raster(pts(20, 20, 30, 20, 30, 30), 10, 10))).toBe(0);
  });

  it('nonzero fills a pentagram whole, even-odd leaves the centre empty', () => {
    const star: Point[] = [];
    for (let k = 0; k < 5; k++) {
      const t = (k * 4 * Math.PI) / 5 - Math.PI / 2;
      star.push({ x: 50 + 40 * Math.cos(t), y: 50 + 40 * Math.sin(t) });
    }
    const nz = raster(star, 100, 100, 'nonzero');
    const eo = raster(star, 100, 100, 'evenodd');
    expect(nz[50 * 100 + 50]).toBe(1);
    expect(eo[50 * 100 + 50]).toBe(0);
    expect(count(nz)).toBeGreaterThan(count(eo));
  });

  it('matches a pixel-by-pixel winding number test on random polygons (property)', () => {
    const point = fc.record({ x: fc.double({ min: -3, max: 23, noNaN: true }), y: fc.double({ min: -3, max: 23, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(point, { minLength: 3, maxLength: 12 }), fc.constantFrom<FillRule>('nonzero', 'evenodd'), (poly, rule) => {
        const got = raster(poly, 20, 20, rule);
        const want = bruteForce(poly, 20, 20, rule);
        // Centres lying on an edge are ties that floating point decides either way: skip those.
        for (let i = 0; i < got.length; i++) {
          if (got[i] !== want[i]) expect(nearEdge(poly, (i % 20) + 0.5, Math.floor(i / 20) + 0.5), `pixel ${i}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a degenerate polygon fills nothing', () => {
    expect(count(raster(pts(1, 1, 5, 5, 9, 9), 10, 10))).toBe(0);
    expect(polygonSpans([], 10, 10).count).toBe(0);
  });
});
