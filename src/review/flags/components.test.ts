import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draw } from '../testSupport';
import { classMap, components, erode, selectClass } from './components';

/** Erosion by definition: every pixel of the square inside the image and set. */
function naiveErode(mask: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let all = true;
      for (let dy = -r; dy <= r && all; dy++) {
        for (let dx = -r; dx <= r && all; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h || mask[ny * w + nx] === 0) all = false;
        }
      }
      out[y * w + x] = all ? 1 : 0;
    }
  }
  return out;
}

const maskArb = fc
  .record({ w: fc.integer({ min: 1, max: 12 }), h: fc.integer({ min: 1, max: 12 }) })
  .chain(({ w, h }) => fc.record({ w: fc.constant(w), h: fc.constant(h), bits: fc.uint8Array({ min: 0, max: 1, minLength: w * h, maxLength: w * h }) }));

describe('erode', () => {
  it('equals the definition (outside the image counts as unset)', () => {
    fc.assert(
      fc.property(maskArb, fc.integer({ min: 0, max: 3 }), ({ w, h, bits }, r) => {
        expect(Array.from(erode(bits, w, h, r))).toEqual(Array.from(naiveErode(bits, w, h, r)));
      }),
    );
  });
});

describe('components', () => {
  it('labels 8- and 4-connected components with area, box, border and neighbouring classes', () => {
    const map = draw([
      '......',
      '.a..t.',
      '..a.t.',
      '......',
    ]);
    const cls = classMap(map);
    const act8 = components(selectClass(cls, 1), 6, 4, 8, cls);
    expect(act8.list).toEqual([{ id: 1, area: 2, box: { x: 1, y: 1, w: 2, h: 2 }, border: false, neighbours: 1 }]);
    const act4 = components(selectClass(cls, 1), 6, 4, 4, cls);
    expect(act4.list.map((c) => c.area)).toEqual([1, 1]);
    const bg = components(selectClass(cls, 0), 6, 4, 4, cls);
    expect(bg.list).toHaveLength(1);
    expect(bg.list[0]).toMatchObject({ area: 20, border: true, neighbours: 0b110 });
  });

  it('partitions the selected pixels: areas add up and every pixel gets one label (property)', () => {
    fc.assert(
      fc.property(maskArb, fc.constantFrom<4 | 8>(4, 8), ({ w, h, bits }, conn) => {
        const { labels, list } = components(bits, w, h, conn);
        expect(list.reduce((n, c) => n + c.area, 0)).toBe(bits.reduce((n, b) => n + b, 0));
        for (let i = 0; i < bits.length; i++) expect(labels[i] > 0).toBe(bits[i] === 1);
        // Neighbouring selected pixels share a label.
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            if (!bits[y * w + x]) continue;
            if (x + 1 < w && bits[y * w + x + 1]) expect(labels[y * w + x + 1]).toBe(labels[y * w + x]);
            if (y + 1 < h && bits[(y + 1) * w + x]) expect(labels[(y + 1) * w + x]).toBe(labels[y * w + x]);
            if (conn === 8 && x + 1 < w && y + 1 < h && bits[(y + 1) * w + x + 1]) expect(labels[(y + 1) * w + x + 1]).toBe(labels[y * w + x]);
          }
        }
      }),
    );
  });

  it('handles a frame-sized component without recursion', () => {
    const w = 2000;
    const h = 1000;
    const bits = new Uint8Array(w * h).fill(1);
    const { list } = components(bits, w, h, 4);
    expect(list).toHaveLength(1);
    expect(list[0].area).toBe(w * h);
  });
});
