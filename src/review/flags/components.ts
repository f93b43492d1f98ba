/**
 * Connected components and erosion on label maps, iterative (an explicit queue, never recursion:
 * a 4K frame's background is millions of pixels, far beyond any call stack).
 *
 * Pixels are classed 1 (actionable), 2 (transformed) or 0 (everything else). Foreground components
 * are 8-connected and background ones 4-connected — the usual dual pair, so a diagonal chain of
 * object pixels closes a hole, and a hole never leaks through a diagonal gap.
 */
import type { Box, LabelMap } from '../../masks/labelMap';

export type PixelClass = 0 | 1 | 2;

/** Label value -> class: 1 and 2 are the states, anything else is background. */
const CLASS_OF = new Uint8Array(256);
CLASS_OF[1] = 1;
CLASS_OF[2] = 2;

export function classMap(map: LabelMap): Uint8Array {
  const out = new Uint8Array(map.data.length);
  for (let i = 0; i < out.length; i++) out[i] = CLASS_OF[map.data[i]];
  return out;
}

export interface Component {
  /** 1-based id, as written in `labels`. */
  id: number;
  area: number;
  box: Box;
  /** Touches the image border (so it is not enclosed by anything). */
  border: boolean;
  /** Bit c set when a pixel of class c lies next to the component (same connectivity), outside it. */
  neighbours: number;
}

export interface Components {
  /** Per pixel: 0 outside the selected pixels, else the component id. */
  labels: Int32Array;
  list: Component[];
}

/**
 * Components of the pixels where `select[i]` is nonzero. `cls` (same length) is used to record
 * which classes surround each component.
 */
export function components(
  select: Uint8Array,
  width: number,
  height: number,
  connectivity: 4 | 8,
  cls?: Uint8Array,
): Components {
  const n = width * height;
  const labels = new Int32Array(n);
  const queue = new Int32Array(n);
  const list: Component[] = [];
  const diag = connectivity === 8;
  for (let start = 0; start < n; start++) {
    if (select[start] === 0 || labels[start] !== 0) continue;
    const id = list.length + 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    labels[start] = id;
    let area = 0;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    let border = false;
    let neighbours = 0;
    while (head < tail) {
      const i = queue[head++];
      area++;
      const y = (i / width) | 0;
      const x = i - y * width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) border = true;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          if (!diag && dx !== 0 && dy !== 0) continue;
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (select[j] !== 0) {
            if (labels[j] === 0) {
              labels[j] = id;
              queue[tail++] = j;
            }
          } else if (cls) {
            neighbours |= 1 << cls[j];
          }
        }
      }
    }
    list.push({ id, area, box: { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }, border, neighbours });
  }
  return { labels, list };
}

/** 1 where `cls` equals `c`, else 0. */
export function selectClass(cls: Uint8Array, c: PixelClass): Uint8Array {
  const out = new Uint8Array(cls.length);
  for (let i = 0; i < cls.length; i++) out[i] = cls[i] === c ? 1 : 0;
  return out;
}

/**
 * Erosion of a 0/1 mask by a (2r+1) x (2r+1) square; pixels beyond the image count as 0, so the
 * result never claims what the image cannot show. Separable: rows, then columns, each in O(n) with
 * a run counter.
 */
export function erode(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  if (r <= 0) return mask.slice();
  const size = 2 * r + 1;
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    const o = y * width;
    let run = 0;
    for (let x = 0; x < width; x++) {
      run = mask[o + x] !== 0 ? run + 1 : 0;
      // `run` ones end at x: the window centred at x - r is full.
      if (run >= size) rows[o + x - r] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) {
    let run = 0;
    for (let y = 0; y < height; y++) {
      run = rows[y * width + x] !== 0 ? run + 1 : 0;
      if (run >= size) out[(y - r) * width + x] = 1;
    }
  }
  return out;
}
