/**
 * The compressed text form of COCO RLE counts, exactly as pycocotools' rleToString / rleFrString.
 *
 * Each count becomes a little-endian sequence of 5-bit groups, one character per group
 * (char = group + 48, so only '0'..'o' appear). Bit 0x20 of a character means "more groups follow";
 * bit 0x10 of the last group is the sign. From the fourth count on (i > 2, not i >= 2: a quirk of the
 * reference we must keep), a count is stored as the difference to the count two places earlier, which
 * keeps the numbers small when neighbouring columns have similar runs.
 */
import { MaskFormatError } from './errors';

/** Characters emitted by rleToString are 48 ('0') .. 111 ('o'). */
const CHAR_MIN = 48;
const CHAR_MAX = 111;
/**
 * 7 groups carry 35 bits, enough for any uint32 delta; pycocotools never writes more.
 * Our frames (MAX_SIDE² = 2^26 pixels) need at most 6.
 */
const MAX_GROUPS = 7;
/** 32^k for k = 0..7, so decoding stays exact beyond JS's 32-bit bitwise range. */
const POW32 = Array.from({ length: MAX_GROUPS + 1 }, (_, k) => 32 ** k);
/** Counts are uint32 in pycocotools. */
const MAX_COUNT = 0xffffffff;
/** Encoding uses 32-bit bitwise ops, so counts must stay below 2^31 (frames need < 2^26). */
const MAX_ENCODABLE_COUNT = 0x7fffffff;

/**
 * The most runs we accept for a mask of `pixels` pixels. An encoder's output has at most
 * pixels + 1; non-canonical files may add empty runs, so allow some slack, but stay bounded by the
 * mask rather than by the length of whatever string we were handed.
 */
export function maxRunsFor(pixels: number): number {
  return 4 * (pixels + 1);
}

/** Counts (run lengths, alternating zeros/ones, starting with zeros) to the compressed string. */
export function countsToString(counts: ArrayLike<number>): string {
  const m = counts.length;
  // A delta of two counts below 2^31 fits 32 signed bits: at most 7 groups of 5 bits.
  const bytes = new Uint8Array(m * 7);
  let p = 0;
  for (let i = 0; i < m; i++) {
    const count = counts[i];
    if (!(Number.isInteger(count) && count >= 0 && count <= MAX_ENCODABLE_COUNT)) {
      throw new RangeError(`RLE count ${i} is ${count}; counts must be integers in [0, 2^31)`);
    }
    let x = i > 2 ? count - counts[i - 2] : count;
    let more = true;
    while (more) {
      let c = x & 0x1f;
      x >>= 5; // arithmetic shift: negative deltas end in a run of -1, as in C's `long`
      more = (c & 0x10) !== 0 ? x !== -1 : x !== 0;
      if (more) c |= 0x20;
      bytes[p++] = c + CHAR_MIN;
    }
  }
  return bytesToAscii(bytes, p);
}

/**
 * The compressed string back to counts.
 *
 * Hostile input is bounded: the string is validated and its numbers counted before anything is
 * allocated (the output is at most 4 bytes per character), and when `expectedTotal` (h * w) is given
 * the decoder stops at the first run that overshoots it, and checks the runs cover it exactly.
 * Throws MaskFormatError on any malformed input.
 */
export function stringToCounts(s: string, expectedTotal?: number): Uint32Array {
  if (typeof s !== 'string') throw new MaskFormatError(`RLE counts must be a string, got ${typeof s}`);
  const n = countNumbers(s);
  if (expectedTotal !== undefined && n > maxRunsFor(expectedTotal)) {
    throw new MaskFormatError(`RLE counts string holds ${n} runs, far more than a mask of ${expectedTotal} pixels needs`);
  }
  const counts = new Uint32Array(n);
  let p = 0;
  let total = 0;
  for (let m = 0; m < n; m++) {
    let x = 0;
    let k = 0;
    let more = true;
    while (more) {
      const c = s.charCodeAt(p) - CHAR_MIN;
      if (k === MAX_GROUPS) {
        throw new MaskFormatError(`RLE counts string: number ${m} at position ${p} has more than ${MAX_GROUPS} groups`);
      }
      x += (c & 0x1f) * POW32[k];
      more = (c & 0x20) !== 0;
      p++;
      k++;
      if (!more && (c & 0x10) !== 0) x -= POW32[k]; // sign-extend the last group
    }
    if (m > 2) x += counts[m - 2];
    if (x < 0) throw new MaskFormatError(`RLE run ${m} is negative (${x})`);
    if (x > MAX_COUNT) throw new MaskFormatError(`RLE run ${m} is too large (${x})`);
    counts[m] = x;
    total += x;
    if (expectedTotal !== undefined && total > expectedTotal) {
      throw new MaskFormatError(`RLE runs cover more than the ${expectedTotal} pixels of the mask (at run ${m})`);
    }
  }
  if (expectedTotal !== undefined && total !== expectedTotal) {
    throw new MaskFormatError(`RLE runs cover ${total} pixels but the mask has ${expectedTotal}`);
  }
  return counts;
}

/** Validates every character and returns how many numbers the string holds. */
function countNumbers(s: string): number {
  let n = 0;
  const len = s.length;
  for (let p = 0; p < len; p++) {
    const code = s.charCodeAt(p);
    if (code < CHAR_MIN || code > CHAR_MAX) {
      throw new MaskFormatError(
        `RLE counts string has an invalid character ${JSON.stringify(s[p])} at position ${p} (allowed '0'..'o')`,
      );
    }
    if (((code - CHAR_MIN) & 0x20) === 0) n++;
  }
  if (len > 0 && ((s.charCodeAt(len - 1) - CHAR_MIN) & 0x20) !== 0) {
    throw new MaskFormatError('RLE counts string ends in the middle of a number (truncated?)');
  }
  return n;
}

/** ASCII bytes to a string in chunks: String.fromCharCode(...all) would overflow the call stack. */
function bytesToAscii(bytes: Uint8Array, length: number): string {
  const CHUNK = 8192;
  let out = '';
  for (let i = 0; i < length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(i + CHUNK, length)) as unknown as number[]);
  }
  return out;
}
