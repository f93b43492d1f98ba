import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../../masks/labelMap';
import { boundarySegments, haloColour, outlineWidths, stateOutlineSegments, tilesTouching, OUTLINE_HALO_PX, OUTLINE_LINE_PX } from './outlineGeometry';

/** Segments as [x0, y0, x1, y1] tuples, sorted, for comparison. */
function segs(a: Float32Array): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < a.length; i += 4) out.push([a[i], a[i + 1], a[i + 2], a[i + 3]]);
  return out.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2] || p[3] - q[3]);
}

const whole = (w: number, h: number) => ({ x: 0, y: 0, w, h });

describe('boundarySegments', () => {
  it('a filled rectangle has four merged sides on the pixel edges', () => {
    const map = createLabelMap(10, 8);
    for (let y = 2; y < 5; y++) map.data.fill(1, y * 10 + 3, y * 10 + 7); // x 3..6, y 2..4
    expect(segs(boundarySegments(map, 1, whole(10, 8)))).toEqual([
      [3, 2, 3, 5], // left side
      [3, 2, 7, 2], // top
      [3, 5, 7, 5], // bottom
      [7, 2, 7, 5], // right
    ]);
    expect(boundarySegments(map, 2, whole(10, 8))).toHaveLength(0);
  });

  it('a region on the frame edge is closed along the edge', () => {
    const map = createLabelMap(4, 4);
    map.data[0] = 2; // pixel (0, 0)
    expect(segs(boundarySegments(map, 2, whole(4, 4)))).toEqual([
      [0, 0, 0, 1],
      [0, 0, 1, 0],
      [0, 1, 1, 1],
      [1, 0, 1, 1],
    ]);
  });

  it('tiles split the edges between them exactly once (their union is the whole outline)', () => {
    const map = createLabelMap(9, 7);
    for (let i = 0; i < map.data.length; i++) map.data[i] = (i * 7919) % 5 === 0 ? 1 : (i * 31) % 3 === 0 ? 2 : 0;
    for (const label of [1, 2]) {
      const unit = (a: Float32Array) => {
        // Split merged segments into unit edges, so tiles that break a run still compare equal.
        const edges = new Set<string>();
        for (const [x0, y0, x1, y1] of segs(a)) {
          if (y0 === y1) for (let x = x0; x < x1; x++) edges.add(`h${x},${y0}`);
          else for (let y = y0; y < y1; y++) edges.add(`v${x0},${y}`);
        }
        return edges;
      };
      const all = unit(boundarySegments(map, label, whole(9, 7)));
      const parts = new Set<string>();
      let total = 0;
      for (const tile of tilesTouching({ x: 0, y: 0, w: 9, h: 7 }, 9, 7, 4)) {
        const e = unit(boundarySegments(map, label, tile));
        total += e.size;
        for (const k of e) parts.add(k);
      }
      expect(parts).toEqual(all);
      expect(total).toBe(all.size); // no edge drawn by two tiles
    }
  });
});

describe('tilesTouching', () => {
  it('covers a dirty box grown by one pixel right and below (a pixel owns the edges after it)', () => {
    expect(tilesTouching({ x: 3, y: 3, w: 1, h: 1 }, 16, 16, 4)).toEqual([
      { x: 0, y: 0, w: 4, h: 4 },
      { x: 4, y: 0, w: 4, h: 4 },
      { x: 0, y: 4, w: 4, h: 4 },
      { x: 4, y: 4, w: 4, h: 4 },
    ]);
    expect(tilesTouching({ x: 5, y: 5, w: 1, h: 1 }, 16, 16, 4)).toEqual([{ x: 4, y: 4, w: 4, h: 4 }]);
    expect(tilesTouching({ x: 13, y: 0, w: 3, h: 1 }, 15, 6, 4)).toEqual([{ x: 12, y: 0, w: 3, h: 4 }]);
  });
});

describe('outline widths', () => {
  it('are constant on screen at any zoom: image-space width x scale is the same number of screen pixels', () => {
    for (const scale of [1 / 8, 0.5, 1, 2, 4, 16]) {
      const w = outlineWidths(scale);
      expect(w.line * scale).toBeCloseTo(OUTLINE_LINE_PX, 10);
      expect(w.halo * scale).toBeCloseTo(OUTLINE_HALO_PX, 10);
    }
    expect(OUTLINE_HALO_PX).toBeGreaterThan(OUTLINE_LINE_PX); // the halo shows on both sides of the line
  });

  it('the halo is dark under a light colour and light under a dark one, so one of them shows on any frame', () => {
    expect(haloColour('#ef4444')).toBe('#000000');
    expect(haloColour('#ffff00')).toBe('#000000');
    expect(haloColour('#1e3a8a')).toBe('#ffffff');
    expect(haloColour('#000000')).toBe('#ffffff');
  });
});

describe('stateOutlineSegments', () => {
  it('equals boundarySegments of each state, segment for segment and in order, on random maps and tiles', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let trial = 0; trial < 40; trial++) {
      const w = 1 + Math.floor(rand() * 40);
      const h = 1 + Math.floor(rand() * 30);
      const map = createLabelMap(w, h);
      // Blobs of 0/1/2 (and the odd other label) so that runs, not just single pixels, occur.
      let v = 0;
      for (let i = 0; i < map.data.length; i++) {
        if (rand() < 0.2) v = rand() < 0.05 ? 3 : Math.floor(rand() * 3);
        map.data[i] = v;
      }
      const tile = 3 + Math.floor(rand() * 12);
      for (const t of tilesTouching(whole(w, h), w, h, tile)) {
        const both = stateOutlineSegments(map, t);
        expect(Array.from(both[1])).toEqual(Array.from(boundarySegments(map, 1, t)));
        expect(Array.from(both[2])).toEqual(Array.from(boundarySegments(map, 2, t)));
      }
    }
  });
});
