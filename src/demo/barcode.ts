/**
 * Frame identity barcode: a single row of square cells in the top-left corner of every demo frame,
 * encoding a 16-bit integer (the video frame index) so decoded video frames can be matched to the
 * frames that were rendered, whatever the player's seeking did.
 *
 * Layout (cell size c px, one cell of grey quiet zone around):
 *   [start guard B W B] [16 data bits, MSB first] [4 check bits] [stop guard W B W]
 * White = 1, black = 0. The check bits are a CRC-4 (x^4 + x + 1) of the data, xor 0b0101.
 * Decoding thresholds each cell's mean luminance (inner half of the cell only) at the midpoint of the
 * guards' black and white levels, so it survives blur, noise, brightness shifts and the studio-range
 * levels of decoded video.
 */
import type { Box, RgbaImage } from '../masks/labelMap';

export const BARCODE_BITS = 16;
export const BARCODE_MAX = (1 << BARCODE_BITS) - 1;
const CHECK_BITS = 4;
const START = [0, 1, 0] as const;
const STOP = [1, 0, 1] as const;
/** Total cells in the row. */
export const BARCODE_CELLS = START.length + BARCODE_BITS + CHECK_BITS + STOP.length;
const QUIET = 1;
const WHITE = 255;
const BLACK = 0;
const GREY = 128;

/** Cell size in px for a frame: 8 px at 640x360, 16 px at 1280x720 and above, smaller for tiny frames. */
export function barcodeCellSize(width: number, height: number): number {
  const s = Math.min(width / 640, height / 360);
  let c = Math.max(2, Math.min(16, Math.round(8 * s)));
  c = Math.min(c, Math.floor(width / (BARCODE_CELLS + 2 * QUIET)), Math.floor(height / (1 + 2 * QUIET)));
  return c;
}

/** The pixel box the barcode (with its quiet zone) occupies; w = h = 0 when the frame is too small. */
export function barcodeRect(width: number, height: number): Box {
  const c = barcodeCellSize(width, height);
  if (c < 2) return { x: 0, y: 0, w: 0, h: 0 };
  return { x: 0, y: 0, w: (BARCODE_CELLS + 2 * QUIET) * c, h: (1 + 2 * QUIET) * c };
}

export function crc4(value: number): number {
  let crc = 0;
  for (let bit = BARCODE_BITS - 1; bit >= 0; bit--) {
    const b = (value >>> bit) & 1;
    const top = (crc >>> 3) & 1;
    crc = (crc << 1) & 0xf;
    if (top ^ b) crc ^= 0x3;
  }
  return crc ^ 0x5;
}

/** The cell values (1 = white) for a value. */
export function barcodeCells(value: number): number[] {
  if (!Number.isInteger(value) || value < 0 || value > BARCODE_MAX) {
    throw new RangeError(`barcode value must be an integer in [0, ${BARCODE_MAX}], got ${value}`);
  }
  const cells: number[] = [...START];
  for (let bit = BARCODE_BITS - 1; bit >= 0; bit--) cells.push((value >>> bit) & 1);
  const check = crc4(value);
  for (let bit = CHECK_BITS - 1; bit >= 0; bit--) cells.push((check >>> bit) & 1);
  cells.push(...STOP);
  return cells;
}

function fillBox(img: RgbaImage, x0: number, y0: number, w: number, h: number, v: number): void {
  const d = img.data;
  const x1 = Math.min(img.width, x0 + w);
  const y1 = Math.min(img.height, y0 + h);
  for (let y = Math.max(0, y0); y < y1; y++) {
    for (let x = Math.max(0, x0); x < x1; x++) {
      const i = (y * img.width + x) * 4;
      d[i] = v;
      d[i + 1] = v;
      d[i + 2] = v;
      d[i + 3] = 255;
    }
  }
}

/** Draws the barcode for value into img (in place). Returns false when the frame is too small. */
export function drawBarcode(img: RgbaImage, value: number): boolean {
  const cells = barcodeCells(value);
  const c = barcodeCellSize(img.width, img.height);
  if (c < 2) return false;
  const r = barcodeRect(img.width, img.height);
  fillBox(img, r.x, r.y, r.w, r.h, GREY);
  for (let i = 0; i < cells.length; i++) fillBox(img, (QUIET + i) * c, QUIET * c, c, c, cells[i] ? WHITE : BLACK);
  return true;
}

/** Mean luma (BT.601 weights) over the inner part of cell i. */
function cellLuma(img: RgbaImage, c: number, i: number): number {
  const m = Math.floor(c / 4);
  const x0 = (QUIET + i) * c + m;
  const y0 = QUIET * c + m;
  const n = c - 2 * m;
  const d = img.data;
  let sum = 0;
  for (let y = y0; y < y0 + n; y++) {
    for (let x = x0; x < x0 + n; x++) {
      const k = (y * img.width + x) * 4;
      sum += 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2];
    }
  }
  return sum / (n * n);
}

function decodeWithCell(img: RgbaImage, c: number): number | null {
  if (c < 2 || (BARCODE_CELLS + 2 * QUIET) * c > img.width || (1 + 2 * QUIET) * c > img.height) return null;
  const luma: number[] = [];
  for (let i = 0; i < BARCODE_CELLS; i++) luma.push(cellLuma(img, c, i));
  const guards: [number, number][] = [];
  START.forEach((v, i) => guards.push([i, v]));
  STOP.forEach((v, i) => guards.push([BARCODE_CELLS - STOP.length + i, v]));
  let black = 0;
  let white = 0;
  let nb = 0;
  let nw = 0;
  for (const [i, v] of guards) {
    if (v) {
      white += luma[i];
      nw++;
    } else {
      black += luma[i];
      nb++;
    }
  }
  black /= nb;
  white /= nw;
  if (white - black < 48) return null;
  const thr = (white + black) / 2;
  for (const [i, v] of guards) if ((luma[i] > thr ? 1 : 0) !== v) return null;
  let value = 0;
  for (let b = 0; b < BARCODE_BITS; b++) value = (value << 1) | (luma[START.length + b] > thr ? 1 : 0);
  let check = 0;
  for (let b = 0; b < CHECK_BITS; b++) check = (check << 1) | (luma[START.length + BARCODE_BITS + b] > thr ? 1 : 0);
  return check === crc4(value) ? value : null;
}

/**
 * Reads the frame barcode; null when there is none (guards or check bits wrong). Tries the cell size
 * expected for the image size first, then the other sizes (in case the video was rescaled).
 */
export function readBarcode(img: RgbaImage): number | null {
  const expected = barcodeCellSize(img.width, img.height);
  const first = decodeWithCell(img, expected);
  if (first !== null) return first;
  for (let c = 16; c >= 2; c--) {
    if (c === expected) continue;
    const v = decodeWithCell(img, c);
    if (v !== null) return v;
  }
  return null;
}
