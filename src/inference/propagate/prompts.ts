/**
 * SAM prompts from a region of the previous frame: its box plus a few interior points. The first
 * point is the maximum of the region's Euclidean distance transform (the pixel deepest inside, which
 * stays on the object under moderate motion far better than the centroid of a C-shaped region);
 * the others are spread over the region's core (pixels at least half as deep) by farthest-point
 * sampling, so a long object gets points along its length. Points are pixel centres (+0.5), the box
 * is the region's pixel-edge box, both in continuous frame coordinates like every SAM prompt.
 */
import type { SamPrompt } from '../models/samGeometry';
import type { CroppedMask } from '../spoc/croppedMask';

const INF = 1e20;

/** 1-D squared distance transform of f (Felzenszwalb & Huttenlocher), into d. */
function edt1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -INF;
  z[1] = INF;
  for (let q = 1; q < n; q++) {
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const dq = q - v[k];
    d[q] = dq * dq + f[v[k]];
  }
}

/**
 * Exact squared Euclidean distance of every set pixel of the crop to the nearest unset pixel, where
 * everything outside the crop counts as unset (the crop is padded by one background pixel).
 * Unset pixels get 0. Returned for the crop (box.w x box.h), row-major.
 */
export function squaredDistanceTransform(mask: CroppedMask): Float64Array {
  const { w, h } = mask.box;
  const pw = w + 2;
  const ph = h + 2;
  const grid = new Float64Array(pw * ph);
  for (let y = 0; y < ph; y++) {
    for (let x = 0; x < pw; x++) {
      const inside = x > 0 && y > 0 && x <= w && y <= h && mask.data[(y - 1) * w + (x - 1)] !== 0;
      grid[y * pw + x] = inside ? INF : 0;
    }
  }
  const n = Math.max(pw, ph);
  const f = new Float64Array(n);
  const d = new Float64Array(n);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  for (let x = 0; x < pw; x++) {
    for (let y = 0; y < ph; y++) f[y] = grid[y * pw + x];
    edt1d(f, ph, d, v, z);
    for (let y = 0; y < ph; y++) grid[y * pw + x] = d[y];
  }
  for (let y = 0; y < ph; y++) {
    for (let x = 0; x < pw; x++) f[x] = grid[y * pw + x];
    edt1d(f, pw, d, v, z);
    for (let x = 0; x < pw; x++) grid[y * pw + x] = d[x];
  }
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = grid[(y + 1) * pw + (x + 1)];
  return out;
}

export interface InteriorPoint {
  /** Integer pixel in frame coordinates. */
  x: number;
  y: number;
  /** Distance to the region's edge (px). */
  depth: number;
}

/**
 * The deepest pixel, then up to count - 1 more spread over the core (depth >= coreFraction * max
 * depth) by farthest-point sampling. Ties go to the first pixel in row-major order, so the result is
 * deterministic. Empty mask: no points.
 */
export function interiorPoints(mask: CroppedMask, count = 3, coreFraction = 0.5): InteriorPoint[] {
  if (mask.area === 0 || count < 1) return [];
  const { x: bx, y: by, w } = mask.box;
  const d2 = squaredDistanceTransform(mask);
  let best = 0;
  for (let i = 1; i < d2.length; i++) if (d2[i] > d2[best]) best = i;
  const maxD = Math.sqrt(d2[best]);
  const chosen = [best];
  if (count > 1) {
    const core: number[] = [];
    const minD2 = (coreFraction * maxD) ** 2;
    for (let i = 0; i < d2.length; i++) if (d2[i] > 0 && d2[i] >= minD2) core.push(i);
    // Squared distance from each core pixel to the nearest chosen point.
    const near = new Float64Array(core.length).fill(Infinity);
    while (chosen.length < count) {
      const last = chosen[chosen.length - 1];
      const lx = last % w;
      const ly = (last - lx) / w;
      let pick = -1;
      let pickD = 0;
      for (let c = 0; c < core.length; c++) {
        const i = core[c];
        const x = i % w;
        const y = (i - x) / w;
        const dd = (x - lx) ** 2 + (y - ly) ** 2;
        if (dd < near[c]) near[c] = dd;
        if (near[c] > pickD) {
          pickD = near[c];
          pick = i;
        }
      }
      // A core of one point (or all points already taken) has nothing farther to give.
      if (pick < 0) break;
      chosen.push(pick);
    }
  }
  return chosen.map((i) => {
    const x = i % w;
    const y = (i - x) / w;
    return { x: bx + x, y: by + y, depth: Math.sqrt(d2[i]) };
  });
}

export interface RegionPromptOptions {
  /** Interior points per region (the deepest one plus spread ones); default 3. */
  points?: number;
  /** Include the region's box; default true. */
  box?: boolean;
}

/** The SAM prompt for one region: box + interior positive points. */
export function regionPrompt(mask: CroppedMask, options: RegionPromptOptions = {}): SamPrompt {
  const pts = interiorPoints(mask, options.points ?? 3);
  const { x, y, w, h } = mask.box;
  return {
    points: pts.map((p) => ({ x: p.x + 0.5, y: p.y + 0.5, positive: true })),
    ...((options.box ?? true) && mask.area > 0 ? { box: { x0: x, y0: y, x1: x + w, y1: y + h } } : {}),
  };
}
