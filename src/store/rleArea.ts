import type { Rle } from './types';

/**
 * Areas straight from COCO compressed counts, without building a mask.
 *
 * The store needs only pixel counts (to denormalise Layer.actArea/trfArea on write and to backfill
 * them in the v2 migration), so it carries this small decoder instead of depending on masks/rle.ts:
 * migrations must keep working with the code as it was when they were written.
 *
 * Format (pycocotools rleToString/rleFrString): each count is a little-endian sequence of 5-bit
 * chunks, char = chunk + 48, bit 0x20 = "more chunks follow", bit 0x10 of the last chunk = sign.
 * From the fourth count on, counts are stored as the difference to the count two places earlier.
 * Runs alternate 0,1,0,1,... starting with zeros, so the area is the sum of odd-indexed runs.
 */
export function decodeCounts(counts: string): number[] {
  const out: number[] = [];
  let p = 0;
  while (p < counts.length) {
    let x = 0;
    let k = 0;
    let more = true;
    while (more) {
      if (p >= counts.length) throw new RangeError(`RLE counts truncated at character ${p}`);
      const c = counts.charCodeAt(p) - 48;
      if (c < 0 || c > 63) throw new RangeError(`RLE counts has an invalid character at ${p}`);
      // 7 chunks = 35 bits would overflow JS 32-bit bitwise ops; an 8192x8192 frame needs 27.
      if (k > 6) throw new RangeError(`RLE count too large at character ${p}`);
      x |= (c & 0x1f) << (5 * k);
      more = (c & 0x20) !== 0;
      p++;
      k++;
      if (!more && (c & 0x10) !== 0) x |= -1 << (5 * k);
    }
    if (out.length > 2) x += out[out.length - 2];
    out.push(x);
  }
  return out;
}

/** Pixels set in a binary RLE. Throws RangeError when counts are malformed or do not cover size exactly. */
export function rleArea(rle: Rle): number {
  const [h, w] = rle.size;
  if (!Number.isInteger(h) || !Number.isInteger(w) || h < 0 || w < 0) {
    throw new RangeError(`RLE size [${h}, ${w}] is not a pair of non-negative integers`);
  }
  const runs = decodeCounts(rle.counts);
  let total = 0;
  let area = 0;
  for (let i = 0; i < runs.length; i++) {
    const n = runs[i];
    if (n < 0) throw new RangeError(`RLE run ${i} is negative (${n})`);
    total += n;
    if (i % 2 === 1) area += n;
  }
  if (total !== h * w) {
    throw new RangeError(`RLE runs cover ${total} pixels but size [${h}, ${w}] has ${h * w}`);
  }
  return area;
}
