import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap } from './labelMap';
import { extractBox, pasteBox } from './patches';
import { maskArb } from './testdata/naive';

describe('extractBox / pasteBox', () => {
  it('extracts the pixels of a box, row by row', () => {
    const map = { width: 4, height: 3, data: Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) };
    expect(Array.from(extractBox(map, { x: 1, y: 1, w: 2, h: 2 }))).toEqual([5, 6, 9, 10]);
    expect(extractBox(map, { x: 4, y: 0, w: 0, h: 3 }).length).toBe(0);
  });

  it('paste(extract) restores a map: an undo patch round trip (property)', () => {
    const arb = maskArb([0, 1, 2]).chain(({ mask, h, w }) =>
      fc
        .record({ x: fc.nat(w - 1), y: fc.nat(h - 1) })
        .chain(({ x, y }) => fc.record({ x: fc.constant(x), y: fc.constant(y), w: fc.nat(w - x), h: fc.nat(h - y) }))
        .map((box) => ({ map: { width: w, height: h, data: mask }, box })),
    );
    fc.assert(
      fc.property(arb, ({ map, box }) => {
        const original = map.data.slice();
        const before = extractBox(map, box);
        const after = before.map((v) => (v + 1) % 3);
        pasteBox(map, box, after);
        expect(extractBox(map, box)).toEqual(after);
        // Pixels outside the box are untouched.
        for (let y = 0; y < map.height; y++) {
          for (let x = 0; x < map.width; x++) {
            const inside = x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h;
            if (!inside) expect(map.data[y * map.width + x]).toBe(original[y * map.width + x]);
          }
        }
        pasteBox(map, box, before);
        expect(map.data).toEqual(original);
      }),
    );
  });

  it('refuses boxes outside the map and patches of the wrong length', () => {
    const map = createLabelMap(4, 3);
    expect(() => extractBox(map, { x: 3, y: 0, w: 2, h: 1 })).toThrow(/inside the 4x3 map/);
    expect(() => extractBox(map, { x: -1, y: 0, w: 1, h: 1 })).toThrow(RangeError);
    expect(() => extractBox(map, { x: 0.5, y: 0, w: 1, h: 1 })).toThrow(/integer box/);
    expect(() => pasteBox(map, { x: 0, y: 0, w: 2, h: 2 }, new Uint8Array(3))).toThrow('patch has 3 pixels but box 2x2 needs 4');
  });
});
