import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelArea } from '../../masks/geometry';
import { createLabelMap } from '../../masks/labelMap';
import { capsuleBox, snapBrushCentre, stampCapsule } from './brush';
import { paintTable } from './paintRule';

const PAINT1 = paintTable(1, false);

describe('stampCapsule', () => {
  it('a click paints a disc: exact small footprints', () => {
    for (const [size, expected] of [
      [1, 1],
      [2, 4],
      [3, 9],
      [4, 12],
    ] as const) {
      const map = createLabelMap(20, 20);
      const c = snapBrushCentre({ x: 10.3, y: 9.8 }, size);
      stampCapsule(map, c, c, size / 2, PAINT1);
      expect(labelArea(map, 1), `size ${size}`).toBe(expected);
    }
  });

  // Tolerance for area checks: the pixel-centre rule moves the outline by less than a pixel, so the
  // count differs from the exact area by less than half the perimeter; for strokes the brush
  // actually makes (centres snapped, radius >= 10) the error is below 1 %.
  it('a disc of diameter d covers pi d^2 / 4 pixels (within half the perimeter; 1 % from d = 20)', () => {
    for (const size of [3, 4, 5, 10, 11, 20, 21, 40, 41, 80]) {
      const map = createLabelMap(100, 100);
      const c = snapBrushCentre({ x: 50.2, y: 49.7 }, size);
      const r = size / 2;
      stampCapsule(map, c, c, r, PAINT1);
      const expected = Math.PI * r * r;
      const err = Math.abs(labelArea(map, 1) - expected);
      expect(err, `d=${size}`).toBeLessThan(Math.PI * r);
      if (size >= 20) expect(err / expected, `d=${size}`).toBeLessThan(0.01);
    }
  });

  it('a stroke of length L and radius r covers 2rL + pi r^2 pixels (same tolerance), at any angle', () => {
    for (const [size, L, angle] of [
      [20, 200, 0],
      [40, 300, 0],
      [40, 300, Math.PI / 6],
      [41, 300, 0.3],
      [10, 150, Math.PI / 4],
      [3, 100, 1],
    ] as const) {
      const map = createLabelMap(500, 500);
      const r = size / 2;
      const a = snapBrushCentre({ x: 100.3, y: 100.6 }, size);
      const b = snapBrushCentre({ x: a.x + L * Math.cos(angle), y: a.y + L * Math.sin(angle) }, size);
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      stampCapsule(map, a, b, r, PAINT1);
      const expected = 2 * r * len + Math.PI * r * r;
      const err = Math.abs(labelArea(map, 1) - expected);
      expect(err, `d=${size} L=${L}`).toBeLessThan((2 * len + 2 * Math.PI * r) / 2);
      if (r >= 10) expect(err / expected, `d=${size} L=${L}`).toBeLessThan(0.01);
    }
  });

  it('changes only pixels inside the returned box, which is clipped to the map (property)', () => {
    const pt = fc.record({ x: fc.double({ min: -20, max: 60, noNaN: true }), y: fc.double({ min: -20, max: 60, noNaN: true }) });
    fc.assert(
      fc.property(pt, pt, fc.double({ min: 0.5, max: 15, noNaN: true }), (a, b, r) => {
        const map = createLabelMap(40, 30);
        const box = stampCapsule(map, a, b, r, PAINT1);
        expect(box).toEqual(capsuleBox(a, b, r, 40, 30));
        expect(box.x >= 0 && box.y >= 0 && box.x + box.w <= 40 && box.y + box.h <= 30).toBe(true);
        const wrong: string[] = [];
        for (let y = 0; y < 30; y++) {
          for (let x = 0; x < 40; x++) {
            const v = map.data[y * 40 + x];
            const inBox = x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h;
            if (!inBox && v !== 0) wrong.push(`(${x}, ${y}) outside the box`);
            // Every pixel whose centre is within r of the segment is painted, and no other.
            const cx = x + 0.5;
            const cy = y + 0.5;
            const vx = b.x - a.x;
            const vy = b.y - a.y;
            const len2 = vx * vx + vy * vy;
            const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - a.x) * vx + (cy - a.y) * vy) / len2));
            const d2 = (cx - a.x - t * vx) ** 2 + (cy - a.y - t * vy) ** 2;
            if (Math.abs(d2 - r * r) > 1e-6 && v !== (d2 <= r * r ? 1 : 0)) wrong.push(`(${x}, ${y}) = ${v}`);
          }
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('honours the write table', () => {
    const map = createLabelMap(10, 1);
    map.data.set([2, 2, 0, 0, 1]);
    stampCapsule(map, { x: 0, y: 0.5 }, { x: 10, y: 0.5 }, 1, paintTable(1, true));
    expect(Array.from(map.data)).toEqual([2, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
  });
});

describe('snapBrushCentre', () => {
  it('odd sizes snap to the pixel centre, even sizes to the nearest corner', () => {
    expect(snapBrushCentre({ x: 3.9, y: 7.1 }, 5)).toEqual({ x: 3.5, y: 7.5 });
    expect(snapBrushCentre({ x: 3.9, y: 7.1 }, 4)).toEqual({ x: 4, y: 7 });
  });
});
