/** Synthetic images with known answers, for the classical algorithms' tests and bench. */
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import { mulberry32 as rng } from '../../demo/random';

/** Deterministic noise: the demo generator's mulberry32. */
export { rng };

/**
 * Smooth multi-colour texture: value noise on a coarse grid (cell px), bilinearly interpolated,
 * plus fine per-pixel grain. Rich enough for optical flow, varied enough for colour models.
 */
export function texture(width: number, height: number, seed: number, cell = 16, grain = 12): RgbaImage {
  const r = rng(seed);
  const gw = Math.ceil(width / cell) + 2;
  const gh = Math.ceil(height / cell) + 2;
  const grid = Float32Array.from({ length: gw * gh * 3 }, () => 40 + r() * 150);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const gy = y / cell;
    const iy = Math.floor(gy);
    const fy = gy - iy;
    for (let x = 0; x < width; x++) {
      const gx = x / cell;
      const ix = Math.floor(gx);
      const fx = gx - ix;
      const o = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const v00 = grid[(iy * gw + ix) * 3 + c];
        const v10 = grid[(iy * gw + ix + 1) * 3 + c];
        const v01 = grid[((iy + 1) * gw + ix) * 3 + c];
        const v11 = grid[((iy + 1) * gw + ix + 1) * 3 + c];
        data[o + c] = v00 * (1 - fx) * (1 - fy) + v10 * fx * (1 - fy) + v01 * (1 - fx) * fy + v11 * fx * fy + (r() - 0.5) * grain;
      }
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Paints a filled disc of `rgb` (with ±jitter grain) into `image` and returns its 0/1 mask. */
export function paintDisc(image: RgbaImage, cx: number, cy: number, radius: number, rgb: [number, number, number], seed = 7, jitter = 10): Uint8Array {
  const r = rng(seed);
  const mask = new Uint8Array(image.width * image.height);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 > radius * radius) continue;
      const i = y * image.width + x;
      mask[i] = 1;
      for (let c = 0; c < 3; c++) image.data[i * 4 + c] = rgb[c] + (r() - 0.5) * jitter;
    }
  }
  return mask;
}

/** The image shifted by (dx, dy) whole pixels; uncovered pixels take a fresh texture. */
export function translate(image: RgbaImage, dx: number, dy: number, fillSeed = 99): RgbaImage {
  const fill = texture(image.width, image.height, fillSeed);
  const data = new Uint8ClampedArray(fill.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const sx = x - dx;
      const sy = y - dy;
      if (sx < 0 || sy < 0 || sx >= image.width || sy >= image.height) continue;
      const o = (y * image.width + x) * 4;
      const s = (sy * image.width + sx) * 4;
      for (let c = 0; c < 4; c++) data[o + c] = image.data[s + c];
    }
  }
  return { width: image.width, height: image.height, data };
}

export function translateMask(map: LabelMap, dx: number, dy: number): LabelMap {
  const out = new Uint8Array(map.data.length);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const sx = x - dx;
      const sy = y - dy;
      if (sx >= 0 && sy >= 0 && sx < map.width && sy < map.height) out[y * map.width + x] = map.data[sy * map.width + sx];
    }
  }
  return { width: map.width, height: map.height, data: out };
}

export function iou(a: ArrayLike<number>, b: ArrayLike<number>, label?: number): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const x = label === undefined ? a[i] !== 0 : a[i] === label;
    const y = label === undefined ? b[i] !== 0 : b[i] === label;
    if (x && y) inter++;
    if (x || y) union++;
  }
  return union === 0 ? 1 : inter / union;
}

export function centroid(mask: ArrayLike<number>, width: number, label?: number): { x: number; y: number; n: number } {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (label === undefined ? !mask[i] : mask[i] !== label) continue;
    sx += i % width;
    sy += Math.floor(i / width);
    n++;
  }
  return { x: sx / n, y: sy / n, n };
}
