/**
 * One COCO segmentation (compressed RLE, uncompressed RLE or polygons) to canonical column-major
 * run counts of its image's size, validated with the JSON path in every message. Polygons follow
 * pycocotools (rleFrPoly per polygon, united as annToRLE does); counts must sum to h*w.
 */
import { MaskFormatError } from '../../masks/errors';
import { canonicalCounts, stringToCounts } from '../../masks/rle';
import { polygonCounts } from '../../masks/rlePoly';
import { maxRunsFor } from '../../masks/rleString';
import { at, describe, type JsonReader } from './json';
import { unionCounts } from './stateMasks';

/** The image a segmentation belongs to, for size checks and messages. */
export interface SegmentationImage {
  id: number | string;
  /** JSON path of the image entry, e.g. "images[3]". */
  path: string;
  width: number;
  height: number;
}

/** Any COCO segmentation as canonical column-major run counts of the image's size. */
export function segmentationCounts(r: JsonReader, seg: unknown, path: string, image: SegmentationImage): Uint32Array {
  const { width: w, height: h } = image;
  const n = w * h;
  const mask = <T>(p: string, fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof MaskFormatError) r.fail(p, `is invalid: ${err.problem}`);
      throw err;
    }
  };
  if (Array.isArray(seg)) {
    // Polygons: [[x0, y0, x1, y1, ...], ...], united.
    const list = seg.map((poly, k) => {
      const pp = at(path, k);
      const xy = r.array(poly, pp);
      if (xy.length % 2 !== 0) r.fail(pp, `has an odd number of coordinates (${xy.length})`);
      xy.forEach((v, j) => r.number(v, at(pp, j)));
      return mask(pp, () => polygonCounts(xy as number[], h, w));
    });
    return unionCounts(list, n);
  }
  const o = r.object(seg, path);
  const sizePath = at(path, 'size');
  const size = r.array(r.required(o, 'size', path), sizePath);
  if (size.length !== 2) r.fail(sizePath, `must be [height, width], got ${describe(size)}`);
  const sh = r.integer(size[0], at(sizePath, 0));
  const sw = r.integer(size[1], at(sizePath, 1));
  if (sh !== h || sw !== w) r.fail(sizePath, `is [${sh}, ${sw}] but image ${JSON.stringify(image.id)} (${image.path}) is ${w}x${h}, so it must be [${h}, ${w}]`);
  const countsPath = at(path, 'counts');
  const raw = r.required(o, 'counts', path);
  let counts: ArrayLike<number>;
  if (typeof raw === 'string') {
    counts = mask(countsPath, () => stringToCounts(raw));
  } else if (Array.isArray(raw)) {
    // The same bound the compressed-string decoder applies: far more runs than any mask needs.
    if (raw.length > maxRunsFor(n)) r.fail(countsPath, `has ${raw.length} runs, far more than a ${w}x${h} mask needs`);
    raw.forEach((c, k) => {
      if (typeof c !== 'number' || !Number.isInteger(c) || c < 0) r.fail(at(countsPath, k), `must be a non-negative integer, got ${describe(c)}`);
    });
    counts = raw as number[];
  } else {
    return r.fail(countsPath, `must be a string (compressed RLE) or an array of numbers, got ${describe(raw)}`);
  }
  let total = 0;
  for (let k = 0; k < counts.length; k++) total += counts[k];
  if (total !== n) r.fail(countsPath, `sums to ${total}, expected ${w}*${h}=${n}`);
  return canonicalCounts(counts);
}
