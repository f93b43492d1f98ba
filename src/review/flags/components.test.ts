import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draw } from '../../testing/review';
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

/** Components by definition: a scan-order flood fill with an explicit queue (the first implementation). */
function floodComponents(select: Uint8Array, w: number, h: number, conn: 4 | 8, cls?: Uint8Array) {
  const labels = new Int32Array(w * h);
  const list: { id: number; area: number; box: { x: number; y: number; w: number; h: number }; border: boolean; neighbours: number }[] = [];
  for (let start = 0; start < w * h; start++) {
    if (!select[start] || labels[start]) continue;
    const id = list.length + 1;
    const queue = [start];
    labels[start] = id;
    let [area, x0, y0, x1, y1, border, neighbours] = [0, w, h, -1, -1, false, 0];
    while (queue.length) {
      const i = queue.shift()!;
      const y = Math.floor(i / w);
      const x = i % w;
      area++;
      [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) border = true;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (conn === 4 && dx !== 0 && dy !== 0)) continue;
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const j = ny * w + nx;
          if (select[j]) {
            if (!labels[j]) {
              labels[j] = id;
              queue.push(j);
            }
          } else if (cls) neighbours |= 1 << cls[j];
        }
      }
    }
    list.push({ id, area, box: { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }, border, neighbours });
  }
  return { labels, list };
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

  it('equals a scan-order flood fill: same ids, areas, boxes, borders and neighbouring classes (property)', () => {
    const arb = fc
      .record({ w: fc.integer({ min: 1, max: 14 }), h: fc.integer({ min: 1, max: 14 }) })
      .chain(({ w, h }) => fc.record({ w: fc.constant(w), h: fc.constant(h), labels: fc.uint8Array({ min: 0, max: 2, minLength: w * h, maxLength: w * h }) }));
    fc.assert(
      fc.property(arb, fc.constantFrom<4 | 8>(4, 8), fc.constantFrom<0 | 1 | 2>(0, 1, 2), ({ w, h, labels }, conn, c) => {
        const cls = classMap({ width: w, height: h, data: labels });
        const select = selectClass(cls, c);
        const got = components(select, w, h, conn, cls);
        const want = floodComponents(select, w, h, conn, cls);
        expect(got.list).toEqual(want.list);
        expect(Array.from(got.labels)).toEqual(Array.from(want.labels));
      }),
      { numRuns: 500 },
    );
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
