/** Small shared pieces of the classical algorithms: Mats from our image types, boxes, masks. */
import type { Cv } from './cv';
import type { Box, RgbaImage } from '../../masks/labelMap';
import type { BinaryMask } from '../models/samPostprocess';

type Mat = InstanceType<Cv['Mat']>;

/** An RGB (CV_8UC3) Mat of the image; the caller deletes it. */
export function rgbMat(cv: Cv, image: RgbaImage): Mat {
  const rgba = cv.matFromArray(image.height, image.width, cv.CV_8UC4, image.data);
  const rgb = new cv.Mat();
  cv.cvtColor(rgba, rgb, cv.COLOR_RGBA2RGB);
  rgba.delete();
  return rgb;
}

/** A grey (CV_8UC1) Mat of the image; the caller deletes it. */
export function grayMat(cv: Cv, image: RgbaImage): Mat {
  const rgba = cv.matFromArray(image.height, image.width, cv.CV_8UC4, image.data);
  const gray = new cv.Mat();
  cv.cvtColor(rgba, gray, cv.COLOR_RGBA2GRAY);
  rgba.delete();
  return gray;
}

/** A box clipped to the image with whole-pixel edges, or null when nothing of it is inside. */
export function clipBox(box: Box, width: number, height: number): Box | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(width, Math.ceil(box.x + box.w));
  const y1 = Math.min(height, Math.ceil(box.y + box.h));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/** The area and tight box of a 0/1 mask, as the preview and accept paths expect. */
export function toBinaryMask(width: number, height: number, data: Uint8Array): BinaryMask {
  let area = 0;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (!data[row + x]) continue;
      area++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return { width, height, data, area, bbox: area > 0 ? { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 } : null };
}

/**
 * Keeps the connected components (8-neighbour) of a 0/1 mask that matter: the one holding `seed`
 * when given, else every component at least `minFraction` of the largest. Specks go.
 */
export function keepMainComponents(cv: Cv, mask: Uint8Array, width: number, height: number, options: { seed?: { x: number; y: number }; minFraction?: number } = {}): Uint8Array {
  const src = cv.matFromArray(height, width, cv.CV_8UC1, mask);
  const labels = new cv.Mat();
  const stats = new cv.Mat();
  const centroids = new cv.Mat();
  try {
    const n = cv.connectedComponentsWithStats(src, labels, stats, centroids, 8, cv.CV_32S);
    const lab = labels.data32S;
    const keep = new Uint8Array(n);
    if (options.seed) {
      const id = lab[Math.round(options.seed.y) * width + Math.round(options.seed.x)];
      if (id > 0) keep[id] = 1;
    } else {
      let largest = 0;
      for (let i = 1; i < n; i++) largest = Math.max(largest, stats.intAt(i, cv.CC_STAT_AREA));
      const min = largest * (options.minFraction ?? 0.05);
      for (let i = 1; i < n; i++) if (stats.intAt(i, cv.CC_STAT_AREA) >= min) keep[i] = 1;
    }
    const out = new Uint8Array(width * height);
    for (let i = 0; i < out.length; i++) out[i] = keep[lab[i]];
    return out;
  } finally {
    src.delete();
    labels.delete();
    stats.delete();
    centroids.delete();
  }
}

/** Fills the holes of a 0/1 mask: background not reachable from the border becomes 1. */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const outside = new Uint8Array(width * height);
  const stack: number[] = [];
  const seed = (i: number) => {
    if (mask[i] || outside[i]) return;
    outside[i] = 1;
    stack.push(i);
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    if (x > 0) seed(i - 1);
    if (x < width - 1) seed(i + 1);
    if (i >= width) seed(i - width);
    if (i < (height - 1) * width) seed(i + width);
  }
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = outside[i] ? 0 : 1;
  return out;
}
