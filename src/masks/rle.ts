/**
 * COCO run-length encoding, bit-exact with pycocotools (cocoapi common/maskApi.c): the branded
 * `CocoRle`, conversions from and to pixels, and validation of RLE JSON from outside.
 * Pixel <-> run conversion lives in rleRuns.ts, the counts string in rleString.ts, operations on
 * RLEs (area, bbox, IoU, merge) in rleOps.ts, polygons in rlePoly.ts.
 *
 * `CocoRle` is the validated, canonical form: runs are never empty except the first, so two equal
 * masks always have equal `counts` strings (cheap change detection) and our strings match what
 * pycocotools' encode() writes for the same mask.
 *
 * Deliberate differences from pycocotools, all on input it never produces itself:
 * - sizes must be positive integers no larger than MAX_SIDE, and runs must cover h * w exactly
 *   (pycocotools trusts both and can read or write out of bounds);
 * - non-canonical counts (empty interior runs) are canonicalised on parse, so their string changes;
 * - strings with characters outside '0'..'o', cut mid-number, negative runs or numbers of more than
 *   7 groups are rejected (rleFrString reads on or wraps); see rleString.ts;
 * - rleOps: different sizes throw instead of giving -1 / an empty RLE; merging nothing throws;
 *   rlePoly: an empty polygon gives an empty mask (the C code reads uninitialised memory).
 */
import { MaskFormatError } from './errors';
import { MAX_SIDE } from './labelMap';
import { countsToString, maxRunsFor, stringToCounts } from './rleString';
import { decodeCounts, encodeCounts } from './rleRuns';

export { MaskFormatError } from './errors';
export { decodeCounts, encodeCounts, encodeCountsWhere, NONZERO, onTableFor, type OnTable } from './rleRuns';
export { countsToString, stringToCounts } from './rleString';

declare const cocoRleBrand: unique symbol;

/**
 * COCO compressed RLE of one binary mask: `size` is [height, width] as in pycocotools.
 * Only code in masks/ creates it (parseCocoRle, rleFromCounts, the encoders), so holding one
 * means it was validated and is canonical.
 * The brand exists only for the type checker; JSON.stringify gives plain `{ size, counts }`.
 */
export type CocoRle = {
  size: [h: number, w: number];
  counts: string;
} & { readonly [cocoRleBrand]: true };

/** Row-major binary mask (nonzero = 1) to COCO RLE. */
export function encodeRle(mask: Uint8Array, h: number, w: number): CocoRle {
  return makeRle(encodeCounts(mask, h, w), h, w);
}

/** COCO RLE to a row-major 0/1 mask of rle.size. */
export function decodeRle(rle: CocoRle): Uint8Array {
  const [h, w] = rle.size;
  return decodeCounts(rleCounts(rle), h, w);
}

/** The run counts of an RLE (decodes the string; validated against the size). */
export function rleCounts(rle: CocoRle): Uint32Array {
  const [h, w] = rle.size;
  return stringToCounts(rle.counts, h * w);
}

/**
 * Counts from any source to a CocoRle: validates them (non-negative integers covering h * w) and
 * canonicalises (drops empty interior runs), so the result is what pycocotools would encode.
 */
export function rleFromCounts(counts: ArrayLike<number>, h: number, w: number): CocoRle {
  checkRleSize(h, w);
  const n = h * w;
  if (counts.length > maxRunsFor(n)) {
    throw new MaskFormatError(`RLE has ${counts.length} runs, far more than a ${w}x${h} mask needs`);
  }
  let total = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    if (typeof c !== 'number' || !Number.isInteger(c)) {
      throw new MaskFormatError(`RLE run ${i} is not an integer (${String(c)})`);
    }
    if (c < 0) throw new MaskFormatError(`RLE run ${i} is negative (${c})`);
    total += c;
    if (total > n) throw new MaskFormatError(`RLE runs cover more than the ${n} pixels of a ${w}x${h} mask (at run ${i})`);
  }
  if (total !== n) throw new MaskFormatError(`RLE runs cover ${total} pixels but a ${w}x${h} mask has ${n}`);
  return makeRle(canonicalCounts(counts), h, w);
}

/**
 * Validates COCO RLE JSON from outside (files, imports, the network): `{ size: [h, w], counts }`
 * where counts is the compressed string or the uncompressed number array (iscrowd style).
 * Returns the canonical CocoRle; throws MaskFormatError with a clear message otherwise.
 */
export function parseCocoRle(json: unknown): CocoRle {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new MaskFormatError(`RLE must be an object {size, counts}, got ${describe(json)}`);
  }
  const { size, counts } = json as { size?: unknown; counts?: unknown };
  if (size === undefined) throw new MaskFormatError('RLE has no size');
  if (!Array.isArray(size) || size.length !== 2) {
    throw new MaskFormatError(`RLE size must be [height, width], got ${describe(size)}`);
  }
  const [h, w] = size as unknown[];
  if (typeof h !== 'number' || typeof w !== 'number') {
    throw new MaskFormatError(`RLE size must be two numbers, got ${describe(size)}`);
  }
  checkRleSize(h, w);
  if (typeof counts === 'string') {
    const decoded = stringToCounts(counts, h * w);
    return makeRle(canonicalCounts(decoded), h, w);
  }
  if (Array.isArray(counts)) return rleFromCounts(counts as unknown[] as number[], h, w);
  if (counts === undefined) throw new MaskFormatError('RLE has no counts');
  throw new MaskFormatError(`RLE counts must be a string or an array of numbers, got ${describe(counts)}`);
}

/** Throws MaskFormatError unless h and w are positive integers no larger than MAX_SIDE. */
export function checkRleSize(h: number, w: number): void {
  if (!Number.isInteger(h) || !Number.isInteger(w)) {
    throw new MaskFormatError(`RLE size [${h}, ${w}] must be integers`);
  }
  if (h <= 0 || w <= 0) throw new MaskFormatError(`RLE size [${h}, ${w}] must be positive`);
  if (h > MAX_SIDE || w > MAX_SIDE) {
    throw new MaskFormatError(`RLE size [${h}, ${w}] exceeds the limit of ${MAX_SIDE} px per side`);
  }
}

/**
 * Counts from our own encoders to the branded RLE, without validation. Only for code in masks/
 * whose counts are canonical and cover h * w by construction; everything else uses rleFromCounts.
 */
export function makeRle(counts: ArrayLike<number>, h: number, w: number): CocoRle {
  return { size: [h, w], counts: countsToString(counts) } as CocoRle;
}

/**
 * Drops empty runs after the first by merging their neighbours: [3, 0, 2, 4] -> [5, 4].
 * Returns the input itself when it is already canonical (the usual case).
 */
export function canonicalCounts(counts: ArrayLike<number>): Uint32Array {
  let canonical = true;
  for (let i = 1; i < counts.length; i++) {
    if (counts[i] === 0) {
      canonical = false;
      break;
    }
  }
  if (canonical) return counts instanceof Uint32Array ? counts : Uint32Array.from(counts);
  const out = new Uint32Array(Math.max(1, counts.length));
  let m = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    if (i > 0 && c === 0) continue;
    // A run of the same value as the last kept run (i and m-1 of equal parity) extends it.
    if (m > 0 && ((m - 1) & 1) === (i & 1)) out[m - 1] += c;
    else out[m++] = c;
  }
  if (m === 0) out[m++] = 0;
  return out.slice(0, m);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === 'string') return `a string of length ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
