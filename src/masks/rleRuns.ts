/**
 * Pixels <-> COCO run counts. Runs are taken in column-major order (down column 0, then column 1,
 * ...) and alternate zeros, ones, zeros, ... starting with a possibly empty run of zeros, exactly as
 * pycocotools' rleEncode / rleDecode. Our masks are row-major; see each function for how it avoids
 * striding through memory.
 */
import { MaskFormatError } from './errors';
import { RunBuffer } from './runBuffer';

/** A byte -> 0/1 table; index by the mask value to learn whether the pixel is "on". */
export type OnTable = Uint8Array;

/** Nonzero = on, as pycocotools treats a uint8 mask. */
export const NONZERO: OnTable = (() => {
  const t = new Uint8Array(256).fill(1);
  t[0] = 0;
  return t;
})();

/** On where the value equals `label`. */
export function onTableFor(label: number): OnTable {
  const t = new Uint8Array(256);
  t[label] = 1;
  return t;
}

/** Row-major binary mask (nonzero = 1) to column-major run counts, as rleEncode. */
export function encodeCounts(mask: Uint8Array, h: number, w: number): Uint32Array {
  return encodeCountsWhere(mask, h, w, NONZERO);
}

/**
 * Row-major mask to column-major run counts, where `on[value]` says which values are "on".
 * layers.ts uses it to encode one label of a label map without a temporary binary mask.
 *
 * Why not walk column by column: that strides through memory. Instead we scan rows in order and
 * record the transitions, pixels whose value differs from the previous pixel in column-major
 * order (the pixel above, or for row 0 the bottom of the previous column). Rows that equal the row
 * above are skipped four bytes at a time. A counting sort by column then puts the transitions in
 * column-major order, and the runs are the gaps between them.
 */
export function encodeCountsWhere(data: Uint8Array, h: number, w: number, on: OnTable): Uint32Array {
  checkDims(h, w, data.length);
  const n = h * w;
  const found = new RunBuffer(); // transition positions p = x * h + y, in row-major scan order
  const perColumn = new Uint32Array(w);

  // Row 0: compare with the last pixel of the previous column (column 0 starts after a virtual 0).
  const lastRow = (h - 1) * w;
  for (let x = 0; x < w; x++) {
    const before = x === 0 ? 0 : on[data[lastRow + x - 1]];
    if (on[data[x]] !== before) {
      found.push(x * h);
      perColumn[x]++;
    }
  }
  // Rows 1..h-1: compare with the pixel above.
  const words = data.byteOffset % 4 === 0 && w % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, n >> 2) : null;
  for (let y = 1; y < h; y++) {
    const row = y * w;
    if (words) {
      const wordsPerRow = w >> 2;
      const wRow = row >> 2;
      for (let k = 0; k < wordsPerRow; k++) {
        if (words[wRow + k] === words[wRow + k - wordsPerRow]) continue;
        for (let x = k << 2, xEnd = x + 4; x < xEnd; x++) {
          if (on[data[row + x]] !== on[data[row - w + x]]) {
            found.push(x * h + y);
            perColumn[x]++;
          }
        }
      }
    } else {
      for (let x = 0; x < w; x++) {
        if (on[data[row + x]] !== on[data[row - w + x]]) {
          found.push(x * h + y);
          perColumn[x]++;
        }
      }
    }
  }

  // Counting sort by column; the scan visited rows in order, so each column stays sorted by y.
  const t = found.length;
  const unsorted = found.toArray();
  const next = new Uint32Array(w);
  for (let x = 1; x < w; x++) next[x] = next[x - 1] + perColumn[x - 1];
  const sorted = new Uint32Array(t);
  for (let i = 0; i < t; i++) {
    const p = unsorted[i];
    sorted[next[Math.floor(p / h)]++] = p;
  }

  // Runs are the gaps between transitions; the first starts at 0 (zeros), the last ends at n.
  const counts = new Uint32Array(t + 1);
  let prev = 0;
  for (let i = 0; i < t; i++) {
    counts[i] = sorted[i] - prev;
    prev = sorted[i];
  }
  counts[t] = n - prev;
  return counts;
}

/**
 * Column-major counts to a row-major mask holding `value` where the RLE is on and 0 elsewhere
 * (rleDecode, but row-major). Throws MaskFormatError when the runs do not cover h * w exactly.
 *
 * Why not paint column segments: that strides through memory. Each row equals the row above except
 * where a run starts or ends, so we compute row 0, then copy each row from the one above (a memcpy)
 * and flip only the pixels where a run boundary falls in that row.
 */
export function decodeCounts(counts: ArrayLike<number>, h: number, w: number, value = 1): Uint8Array {
  checkDims(h, w, h * w);
  if (!(Number.isInteger(value) && value >= 1 && value <= 255)) throw new RangeError(`value ${value} is not 1..255`);
  const n = h * w;
  checkCoverage(counts, h, w);
  const out = new Uint8Array(n);
  const m = counts.length;

  // Pass 1: how many boundaries fall in each row (row 0 handled apart), and the value at the top
  // of each column, which is the parity of the boundaries at or before that position.
  const perRow = new Uint32Array(h + 1);
  let pos = 0;
  let parity = 0;
  let x = 0;
  for (let j = 0; j < m - 1; j++) {
    pos += counts[j];
    if (pos >= n) break; // empty trailing runs
    for (; x * h < pos && x < w; x++) if (parity) out[x] = value;
    parity ^= 1;
    const y = pos % h;
    if (y !== 0) perRow[y + 1]++;
  }
  for (; x < w; x++) if (parity) out[x] = value;

  // Pass 2: bucket the boundaries' columns by row.
  for (let y = 1; y <= h; y++) perRow[y] += perRow[y - 1];
  const cols = new Uint32Array(perRow[h]);
  const fill = perRow.slice(0, h);
  pos = 0;
  for (let j = 0; j < m - 1; j++) {
    pos += counts[j];
    if (pos >= n) break;
    const col = Math.floor(pos / h);
    const y = pos - col * h;
    if (y !== 0) cols[fill[y]++] = col;
  }

  // Rows 1..h-1: copy the row above, flip at boundaries (two boundaries on one pixel cancel).
  for (let y = 1; y < h; y++) {
    const row = y * w;
    out.copyWithin(row, row - w, row);
    for (let k = perRow[y], end = perRow[y + 1]; k < end; k++) out[row + cols[k]] ^= value;
  }
  return out;
}

function checkCoverage(counts: ArrayLike<number>, h: number, w: number): void {
  const n = h * w;
  let total = 0;
  for (let j = 0; j < counts.length; j++) {
    const c = counts[j];
    if (!(Number.isInteger(c) && c >= 0)) throw new MaskFormatError(`RLE run ${j} is not a non-negative integer (${c})`);
    total += c;
  }
  if (total !== n) throw new MaskFormatError(`RLE runs cover ${total} pixels but a ${w}x${h} mask has ${n}`);
}

function checkDims(h: number, w: number, length: number): void {
  if (!Number.isInteger(h) || !Number.isInteger(w) || h <= 0 || w <= 0) {
    throw new RangeError(`invalid mask size ${w}x${h}`);
  }
  if (length !== h * w) throw new RangeError(`mask has ${length} pixels but ${w}x${h} needs ${h * w}`);
}
