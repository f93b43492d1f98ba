/**
 * Connected components and erosion on label maps, iterative (runs and union-find, never recursion:
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
 *
 * Run-based: each row's runs of selected pixels are joined by union-find to the runs of the row
 * above that they touch (overlapping spans for 4-connectivity, spans one pixel wider for 8), so
 * the work is linear scans rather than a per-pixel queue — a 4K background is one component of
 * ~6 M pixels. Ids are given in raster order of each component's first pixel (what a scan-order
 * flood fill gives), so flags come out in reading order.
 */
export function components(
  select: Uint8Array,
  width: number,
  height: number,
  connectivity: 4 | 8,
  cls?: Uint8Array,
): Components {
  const runs = collectRuns(select, width, height);
  const { x0, x1, count, rowStart } = runs;
  const parent = new Int32Array(count);
  for (let r = 0; r < count; r++) parent[r] = r;
  const find = (r: number): number => {
    while (parent[r] !== r) {
      parent[r] = parent[parent[r]];
      r = parent[r];
    }
    return r;
  };
  const ext = connectivity === 8 ? 1 : 0;
  for (let y = 1; y < height; y++) {
    // Two pointers over the runs of rows y-1 (a) and y (b), both sorted by x.
    let a = rowStart[y - 1];
    const aEnd = rowStart[y];
    let b = rowStart[y];
    const bEnd = rowStart[y + 1];
    while (a < aEnd && b < bEnd) {
      if (x0[a] < x1[b] + ext && x0[b] < x1[a] + ext) {
        const ra = find(a);
        const rb = find(b);
        // The earlier run stays root: ids then follow raster order without a relabelling pass.
        if (ra < rb) parent[rb] = ra;
        else if (rb < ra) parent[ra] = rb;
      }
      if (x1[a] < x1[b]) a++;
      else b++;
    }
  }

  const labels = new Int32Array(width * height);
  const list: Component[] = [];
  const idOfRoot = new Int32Array(count);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let r = rowStart[y]; r < rowStart[y + 1]; r++) {
      const root = find(r);
      let c: Component;
      if (root === r) {
        c = { id: list.length + 1, area: 0, box: { x: x0[r], y, w: 0, h: 0 }, border: false, neighbours: 0 };
        idOfRoot[r] = c.id;
        list.push(c);
      } else {
        c = list[idOfRoot[root] - 1];
      }
      const a = x0[r];
      const b = x1[r];
      labels.fill(c.id, row + a, row + b);
      c.area += b - a;
      // box holds x0, y0, x1, y1 (inclusive) while accumulating; turned into w and h below.
      const box = c.box;
      if (a < box.x) box.x = a;
      if (b - 1 > box.w) box.w = b - 1;
      box.h = y;
      if (y === 0 || y === height - 1 || a === 0 || b === width) c.border = true;
      if (cls) c.neighbours |= neighbourClasses(select, cls, width, height, y, a, b, ext);
    }
  }
  for (const c of list) c.box = { x: c.box.x, y: c.box.y, w: c.box.w - c.box.x + 1, h: c.box.h - c.box.y + 1 };
  return { labels, list };
}

interface Runs {
  /** Start (inclusive) and end (exclusive) x of each run, in raster order. */
  x0: Int32Array;
  x1: Int32Array;
  count: number;
  /** Runs of row y are rowStart[y] .. rowStart[y + 1] - 1. */
  rowStart: Int32Array;
}

function collectRuns(select: Uint8Array, width: number, height: number): Runs {
  let capacity = 1024;
  let x0 = new Int32Array(capacity);
  let x1 = new Int32Array(capacity);
  const rowStart = new Int32Array(height + 1);
  let count = 0;
  for (let y = 0; y < height; y++) {
    rowStart[y] = count;
    const row = y * width;
    let x = 0;
    while (x < width) {
      while (x < width && select[row + x] === 0) x++;
      if (x === width) break;
      const start = x;
      while (x < width && select[row + x] !== 0) x++;
      if (count === capacity) {
        capacity *= 2;
        const g0 = new Int32Array(capacity);
        g0.set(x0);
        x0 = g0;
        const g1 = new Int32Array(capacity);
        g1.set(x1);
        x1 = g1;
      }
      x0[count] = start;
      x1[count] = x;
      count++;
    }
  }
  rowStart[height] = count;
  return { x0, x1, count, rowStart };
}

/** Classes of the unselected pixels next to the run [a, b) of row y (left, right, and the rows above and below). */
function neighbourClasses(select: Uint8Array, cls: Uint8Array, width: number, height: number, y: number, a: number, b: number, ext: number): number {
  const row = y * width;
  let bits = 0;
  // The run is maximal, so its left and right neighbours are unselected.
  if (a > 0) bits |= 1 << cls[row + a - 1];
  if (b < width) bits |= 1 << cls[row + b];
  const from = Math.max(0, a - ext);
  const to = Math.min(width, b + ext);
  for (const ny of [y - 1, y + 1]) {
    if (ny < 0 || ny >= height) continue;
    const o = ny * width;
    for (let x = from; x < to; x++) if (select[o + x] === 0) bits |= 1 << cls[o + x];
  }
  return bits;
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
