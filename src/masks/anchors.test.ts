import { describe, expect, it } from 'vitest';
import { createLabelMap } from './labelMap';
import { regionAnchors } from './anchors';

describe('regionAnchors', () => {
  it('gives each asked region the pixel nearest its centre, inside the region even when the centre is not', () => {
    const map = createLabelMap(5, 5);
    // Value 1: a "U" whose centre of mass falls in its empty middle; value 2: one pixel.
    for (const [x, y] of [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [3, 2], [4, 2], [4, 1], [4, 0]]) map.data[y * 5 + x] = 1;
    map.data[4 * 5 + 3] = 2;
    map.data[4 * 5 + 0] = 3;
    const anchors = regionAnchors(map, new Set([1, 2, 7]));
    expect(anchors.get(1)).toEqual({ x: 2.5, y: 2.5 });
    expect(anchors.get(2)).toEqual({ x: 3.5, y: 4.5 });
    expect(anchors.has(3)).toBe(false); // not asked for
    expect(anchors.has(7)).toBe(false); // not on the map
  });
});
